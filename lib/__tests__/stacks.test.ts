import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { TABLE_ATTRIBUTES, TABLE_KEY_SCHEMA } from '../../functions/adapters/aws/table';
import { ROUTES, routeKey, type Route } from '../../functions/routes';
import { ApiStack } from '../api-stack';
import { StatefulStack } from '../stateful-stack';

type Resources = Record<string, { Properties: Record<string, any> }>;

/** Handlers the route table uses; each must become exactly one function. */
const routedHandlers = [...new Set(ROUTES.map((r) => r.handler))];
const DATA_FREE_HANDLERS = new Set(['health', 'sample-data']);
/** Protected scopes the route table uses; each gets one authorizer (function + API authorizer). */
const protectedScopes = [...new Set(ROUTES.map((r) => r.auth).filter((a) => a !== 'public'))].sort();

let stateful: Template;
let api: Template;
let apiStack: ApiStack;

/** The two stacks, without bundling (no esbuild run) or the CloudFormation validation plugin. */
function synth(routes?: readonly Route[]) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });
  const statefulStack = new StatefulStack(app, 'Stateful');
  const apiStack = new ApiStack(app, 'Api', { table: statefulStack.table, routes });
  return { apiStack, stateful: Template.fromStack(statefulStack), api: Template.fromStack(apiStack) };
}

/** `Name` of each API Gateway authorizer -> its logical id. */
function authorizerIds(template: Template): Map<string, string> {
  const authorizers = template.findResources('AWS::ApiGatewayV2::Authorizer') as Resources;
  return new Map(Object.entries(authorizers).map(([logicalId, r]) => [r.Properties.Name as string, logicalId]));
}

/** Checks every route of `routes` has the authorizer of its scope, or none when public. */
function expectAuthorization(template: Template, routes: readonly Route[]) {
  const idByName = authorizerIds(template);
  const resources = Object.values(template.findResources('AWS::ApiGatewayV2::Route') as Resources);
  for (const route of routes) {
    const resource = resources.find((r) => r.Properties.RouteKey === routeKey(route));
    expect(resource, routeKey(route)).toBeDefined();
    const props = resource!.Properties;
    if (route.auth === 'public') {
      expect(props.AuthorizationType ?? 'NONE', routeKey(route)).toBe('NONE');
      expect(props.AuthorizerId, routeKey(route)).toBeUndefined();
    } else {
      expect(props.AuthorizationType, routeKey(route)).toBe('CUSTOM');
      expect(idByName.has(`${route.auth}-authorizer`), routeKey(route)).toBe(true);
      expect(props.AuthorizerId, routeKey(route)).toEqual({ Ref: idByName.get(`${route.auth}-authorizer`) });
    }
  }
}

beforeAll(() => {
  ({ apiStack, stateful, api } = synth());
});

/** The logical id of the table in the stateful stack, as it appears in the api stack's imports. */
function logicalIdOf(template: Template, type: string): string {
  const ids = Object.keys(template.findResources(type));
  expect(ids).toHaveLength(1);
  return ids[0]!;
}

describe('stateful stack: the single table', () => {
  it('has the key schema of functions/adapters/aws/table.ts, on demand', () => {
    stateful.resourceCountIs('AWS::DynamoDB::Table', 1);
    stateful.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: TABLE_KEY_SCHEMA.map((k) => ({ ...k })),
      AttributeDefinitions: TABLE_ATTRIBUTES.map((a) => ({ ...a })),
      BillingMode: 'PAY_PER_REQUEST',
    });
  });

  it('is protected: point-in-time recovery, deletion protection, retained on stack deletion', () => {
    stateful.hasResource('AWS::DynamoDB::Table', {
      Properties: Match.objectLike({
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
      }),
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
  });

  it('streams new and old images for the event wiring', () => {
    stateful.hasResourceProperties('AWS::DynamoDB::Table', {
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
    });
  });
});

describe('api stack: routes from the route table', () => {
  it('has exactly one API Gateway route per ROUTES entry, and no other', () => {
    const routes = Object.values(api.findResources('AWS::ApiGatewayV2::Route') as Resources);
    const keys = routes.map((r) => r.Properties.RouteKey).sort();
    expect(keys).toEqual(ROUTES.map(routeKey).sort());
  });

  it('protects engine and graph routes with the authorizer of their scope; public routes have none', () => {
    expectAuthorization(api, ROUTES);
  });

  it('gives engine and graph routes different authorizers, each told its scope', () => {
    // ROUTES may not use every scope yet; a table that does must still get one authorizer each.
    const routes: Route[] = [
      { method: 'GET', path: '/e', handler: 'health', auth: 'engine' },
      { method: 'GET', path: '/g', handler: 'health', auth: 'graph' },
      { method: 'GET', path: '/g/{id}', handler: 'health', auth: 'graph' },
      { method: 'GET', path: '/p', handler: 'health', auth: 'public' },
    ];
    const { api: mixed, apiStack: mixedStack } = synth(routes);
    mixed.resourceCountIs('AWS::ApiGatewayV2::Authorizer', 2);
    expectAuthorization(mixed, routes);
    expect([...mixedStack.authorizerFunctions.keys()].sort()).toEqual(['engine', 'graph']);
    const functions = Object.values(mixed.findResources('AWS::Lambda::Function') as Resources);
    const scopes = functions.map((f) => f.Properties.Environment?.Variables?.AUTH_SCOPE).filter(Boolean);
    expect(scopes.sort()).toEqual(['engine', 'graph']);
  });

  it('sends each route to the function of its handler', () => {
    const integrations = api.findResources('AWS::ApiGatewayV2::Integration') as Resources;
    const routes = Object.values(api.findResources('AWS::ApiGatewayV2::Route') as Resources);
    for (const route of ROUTES) {
      const props = routes.find((r) => r.Properties.RouteKey === routeKey(route))!.Properties;
      const integrationId = (props.Target['Fn::Join'][1] as unknown[])[1] as { Ref: string };
      const uri = JSON.stringify(integrations[integrationId.Ref]!.Properties.IntegrationUri);
      const fn = apiStack.handlerFunctions.get(route.handler)!;
      expect(uri, routeKey(route)).toContain(apiStack.getLogicalId(fn.node.defaultChild as never));
    }
  });

  it('authorizers are simple-response Lambda authorizers on Authorization and X-Customer-Code, cached 5 minutes', () => {
    api.resourceCountIs('AWS::ApiGatewayV2::Authorizer', protectedScopes.length);
    for (const scope of protectedScopes) {
      api.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
        Name: `${scope}-authorizer`,
        AuthorizerType: 'REQUEST',
        EnableSimpleResponses: true,
        AuthorizerPayloadFormatVersion: '2.0',
        AuthorizerResultTtlInSeconds: 300,
        IdentitySource: ['$request.header.Authorization', '$request.header.X-Customer-Code'],
      });
    }
  });

  it('allows cross-origin calls from any origin with the headers every call carries', () => {
    api.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      ProtocolType: 'HTTP',
      CorsConfiguration: Match.objectLike({
        AllowOrigins: ['*'],
        AllowHeaders: Match.arrayWith(['Authorization', 'X-Customer-Code', 'Content-Type']),
      }),
    });
  });

  it('outputs the API, engine and data graph base URLs and the table name', () => {
    for (const name of ['ApiUrl', 'EngineBaseUrl', 'DataGraphBaseUrl', 'TableName']) api.hasOutput(name, {});
    expect(JSON.stringify(api.findOutputs('DataGraphBaseUrl'))).toContain('/_api/v1');
  });
});

describe('api stack: functions', () => {
  const functions = () => Object.values(api.findResources('AWS::Lambda::Function') as Resources);

  it('has one function per routed handler plus one authorizer function per protected scope', () => {
    expect(functions()).toHaveLength(routedHandlers.length + protectedScopes.length);
    expect([...apiStack.handlerFunctions.keys()].sort()).toEqual([...routedHandlers].sort());
    const scopes = functions().map((f) => f.Properties.Environment?.Variables?.AUTH_SCOPE).filter(Boolean);
    expect(scopes.sort()).toEqual(protectedScopes);
  });

  it('runs every function on Node.js 22, arm64, traced, JSON logs, source maps', () => {
    for (const fn of functions()) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        TracingConfig: { Mode: 'Active' },
        LoggingConfig: { LogFormat: 'JSON', LogGroup: { Ref: expect.any(String) } },
        Environment: { Variables: { NODE_OPTIONS: '--enable-source-maps' } },
      });
    }
  });

  it('gives API handlers 512 MB and 29 s (under the HTTP API 30 s limit)', () => {
    for (const [, fn] of apiStack.handlerFunctions) {
      const props = api.findResources('AWS::Lambda::Function')[apiStack.getLogicalId(fn.node.defaultChild as never)]!
        .Properties;
      expect(props).toMatchObject({ MemorySize: 512, Timeout: 29 });
    }
  });

  it('keeps each function log group one month', () => {
    api.resourceCountIs('AWS::Logs::LogGroup', routedHandlers.length + protectedScopes.length);
    api.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
    const logGroupIds = new Set(Object.keys(api.findResources('AWS::Logs::LogGroup')));
    for (const fn of functions()) expect(logGroupIds.has(fn.Properties.LoggingConfig.LogGroup.Ref)).toBe(true);
  });

  it('gives the table name exactly to the functions that get table permissions', () => {
    const tableId = logicalIdOf(stateful, 'AWS::DynamoDB::Table');
    const policies = Object.values(api.findResources('AWS::IAM::Policy') as Resources);
    const roleIdsWithTableAccess = new Set(
      policies
        .filter((p) => JSON.stringify(p.Properties.PolicyDocument).includes(tableId))
        .flatMap((p) => (p.Properties.Roles as { Ref: string }[]).map((r) => r.Ref)),
    );
    const fns = api.findResources('AWS::Lambda::Function') as Resources;
    for (const [name, fn] of apiStack.handlerFunctions) {
      const props = fns[apiStack.getLogicalId(fn.node.defaultChild as never)]!.Properties;
      const hasTableName = props.Environment.Variables.TABLE_NAME !== undefined;
      const hasGrant = roleIdsWithTableAccess.has(props.Role['Fn::GetAtt'][0]);
      expect(hasTableName, name).toBe(!DATA_FREE_HANDLERS.has(name));
      expect(hasGrant, name).toBe(hasTableName);
    }
    for (const [scope, fn] of apiStack.authorizerFunctions) {
      const props = fns[apiStack.getLogicalId(fn.node.defaultChild as never)]!.Properties;
      expect(props.Environment.Variables.TABLE_NAME, scope).toBeDefined();
      expect(roleIdsWithTableAccess.has(props.Role['Fn::GetAtt'][0]), scope).toBe(true);
    }
  });

  it('grants no wildcard action (* or dynamodb:*) in any policy', () => {
    const statements = Object.values(api.findResources('AWS::IAM::Policy') as Resources).flatMap(
      (p) => p.Properties.PolicyDocument.Statement as { Action: string | string[] }[],
    );
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      for (const action of [statement.Action].flat()) {
        expect(action).not.toBe('*');
        expect(action).not.toMatch(/^dynamodb:\*$/);
        expect(action).not.toMatch(/^[a-z0-9-]+:\*$/);
      }
    }
  });
});
