import { App, Tags } from 'aws-cdk-lib';
import { ApiStack } from '../lib/api-stack';
import { StatefulStack } from '../lib/stateful-stack';

/**
 * The AWS host: two stacks, each deployable on its own. The stateful one (the table) changes
 * rarely and is protected; the API one (functions, routes) is redeployed with every change.
 */
const app = new App();

const env = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION };

const stateful = new StatefulStack(app, 'ExperienceGraph-Stateful', {
  env,
  description: 'Experience graph: stateful resources (DynamoDB table)',
});

new ApiStack(app, 'ExperienceGraph-Api', {
  env,
  description: 'Experience graph: HTTP API and Lambda functions',
  table: stateful.table,
});

Tags.of(app).add('project', 'experience-graph');
Tags.of(app).add('managed-by', 'cdk');
