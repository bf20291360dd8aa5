import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import type { Route } from '../../functions/routes';
import type { BaseFunction } from '../constructs/base-function';
import { StatefulStack } from '../stateful-stack';
import { StatelessStack } from '../stateless-stack';

/** A CloudFormation resource as the tests read it. */
export interface Resource {
  Type: string;
  Properties: Record<string, any>;
  DependsOn?: string[];
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
}

/** An IAM statement as synthesized. */
export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, unknown>;
}

export interface Synthesized {
  app: App;
  stateful: StatefulStack;
  stateless: StatelessStack;
  statefulTemplate: Template;
  statelessTemplate: Template;
}

/**
 * Both stacks, without bundling (no esbuild run: `aws:cdk:bundling-stacks` empty) or the
 * CloudFormation validation plugin, so a synth takes well under a second.
 */
export function synth(routes?: readonly Route[]): Synthesized {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });
  const stateful = new StatefulStack(app, 'Stateful');
  const stateless = new StatelessStack(app, 'Stateless', {
    table: stateful.table,
    filesBucket: stateful.filesBucket,
    eventBus: stateful.eventBus,
    routes,
  });
  return { app, stateful, stateless, statefulTemplate: Template.fromStack(stateful), statelessTemplate: Template.fromStack(stateless) };
}

let cached: Synthesized | undefined;
/** The stacks with the real route table, synthesized once per test file. */
export function synthesized(): Synthesized {
  return (cached ??= synth());
}

/** The logical id of a construct's CloudFormation resource. */
export function logicalIdOf(construct: IConstruct): string {
  const resource = (construct.node.defaultChild ?? construct) as never;
  return Stack.of(construct).getLogicalId(resource);
}

export function resourcesOf(template: Template, type: string): Record<string, Resource> {
  return template.findResources(type) as Record<string, Resource>;
}

/** A function's CloudFormation properties. */
export function functionProps(template: Template, fn: BaseFunction): Record<string, any> {
  const resource = resourcesOf(template, 'AWS::Lambda::Function')[logicalIdOf(fn)];
  if (!resource) throw new Error(`No function ${fn.node.path} in the template`);
  return resource.Properties;
}

/** The logical id of a function's role. */
export function roleIdOf(template: Template, fn: BaseFunction): string {
  return functionProps(template, fn).Role['Fn::GetAtt'][0] as string;
}

/** Every statement of the policies attached to a role (by logical id). */
export function statementsOfRole(template: Template, roleId: string): Statement[] {
  return Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
    .filter((p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
}

export const actionsOf = (statement: Statement): string[] => [statement.Action].flat();

/** Whether a statement's resources mention a logical id (directly or through a cross-stack import). */
export function mentions(statement: Statement, logicalId: string): boolean {
  return JSON.stringify(statement.Resource).includes(logicalId);
}
