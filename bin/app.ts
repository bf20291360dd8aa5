import './quiet-sdk-notice';
import { App, Tags } from 'aws-cdk-lib';
import { StatefulStack } from '../lib/stateful-stack';
import { StatelessStack } from '../lib/stateless-stack';

/**
 * The AWS host: two stacks, each deployable on its own. The stateful one (table, files bucket,
 * event bus) changes rarely and is protected; the stateless one (functions, HTTP API, event
 * wiring, state machines, schedules) is redeployed with every change.
 */
const app = new App();

const env = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION };

const stateful = new StatefulStack(app, 'ExperienceGraph-Stateful', {
  env,
  description: 'Experience graph: stateful resources (DynamoDB table, S3 files bucket, EventBridge bus)',
});

new StatelessStack(app, 'ExperienceGraph-Stateless', {
  env,
  description: 'Experience graph: HTTP API, Lambda functions, event wiring, job state machines and schedules',
  table: stateful.table,
  filesBucket: stateful.filesBucket,
  eventBus: stateful.eventBus,
});

Tags.of(app).add('project', 'experience-graph');
Tags.of(app).add('managed-by', 'cdk');
