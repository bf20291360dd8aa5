import { Match, type Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { ROUTES, routeKey, type Route } from '../../functions/routes';
import { functionProps, logicalIdOf, resourcesOf, synth, synthesized } from './synth';

const { stateless, statelessTemplate: template } = synthesized();
const http = stateless.http;

/** Protected scopes the route table uses; each gets one authorizer (function + API authorizer). */
const protectedScopes = [...new Set(ROUTES.map((r) => r.auth).filter((a) => a !== 'public'))].sort();

/** `Name` of each API Gateway authorizer -> its logical id. */
function authorizerIds(t: Template): Map<string, string> {
  return new Map(Object.entries(resourcesOf(t, 'AWS::ApiGatewayV2::Authorizer')).map(([id, r]) => [r.Properties.Name as string, id]));
}

/** Checks every route of `routes` has the authorizer of its scope, or none when public. */
function expectAuthorization(t: Template, routes: readonly Route[]) {
  const idByName = authorizerIds(t);
  const resources = Object.values(resourcesOf(t, 'AWS::ApiGatewayV2::Route'));
  for (const route of routes) {
    const props = resources.find((r) => r.Properties.RouteKey === routeKey(route))?.Properties;
    expect(props, routeKey(route)).toBeDefined();
    if (route.auth === 'public') {
      expect(props!.AuthorizationType ?? 'NONE', routeKey(route)).toBe('NONE');
      expect(props!.AuthorizerId, routeKey(route)).toBeUndefined();
    } else {
      expect(props!.AuthorizationType, routeKey(route)).toBe('CUSTOM');
      expect(props!.AuthorizerId, routeKey(route)).toEqual({ Ref: idByName.get(`${route.auth}-authorizer`) });
    }
  }
}

describe('HTTP API: routes from the route table', () => {
  it('has exactly one API Gateway route per ROUTES entry, and no other', () => {
    const keys = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey);
    expect(keys.sort()).toEqual(ROUTES.map(routeKey).sort());
  });

  it('protects engine routes with the engine authorizer and data graph routes with the graph one; public routes have none', () => {
    expectAuthorization(template, ROUTES);
  });

  it('gives engine and graph routes different authorizers, each told its scope, even for a table using both', () => {
    const routes: Route[] = [
      { method: 'GET', path: '/e', handler: 'health', auth: 'engine' },
      { method: 'GET', path: '/g', handler: 'health', auth: 'graph' },
      { method: 'GET', path: '/g/{id}', handler: 'health', auth: 'graph' },
      { method: 'GET', path: '/p', handler: 'health', auth: 'public' },
    ];
    const mixed = synth(routes);
    mixed.statelessTemplate.resourceCountIs('AWS::ApiGatewayV2::Authorizer', 2);
    expectAuthorization(mixed.statelessTemplate, routes);
    expect([...mixed.stateless.http.authorizerFunctions.keys()].sort()).toEqual(['engine', 'graph']);
    for (const [scope, fn] of mixed.stateless.http.authorizerFunctions) {
      expect(functionProps(mixed.statelessTemplate, fn).Environment.Variables.AUTH_SCOPE).toBe(scope);
    }
  });

  it('sends each route to the function of its handler', () => {
    const integrations = resourcesOf(template, 'AWS::ApiGatewayV2::Integration');
    const routes = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route'));
    for (const route of ROUTES) {
      const props = routes.find((r) => r.Properties.RouteKey === routeKey(route))!.Properties;
      const integrationId = (props.Target['Fn::Join'][1] as unknown[])[1] as { Ref: string };
      const uri = JSON.stringify(integrations[integrationId.Ref]!.Properties.IntegrationUri);
      expect(uri, routeKey(route)).toContain(logicalIdOf(http.handlerFunctions.get(route.handler)!));
    }
  });

  it('authorizers are simple-response Lambda authorizers cached 5 minutes by Authorization + X-Customer-Code', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Authorizer', protectedScopes.length);
    for (const scope of protectedScopes) {
      template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
        Name: `${scope}-authorizer`,
        AuthorizerType: 'REQUEST',
        EnableSimpleResponses: true,
        AuthorizerPayloadFormatVersion: '2.0',
        AuthorizerResultTtlInSeconds: 300,
        IdentitySource: ['$request.header.Authorization', '$request.header.X-Customer-Code'],
      });
    }
    for (const [scope, fn] of http.authorizerFunctions) {
      const props = functionProps(template, fn);
      expect(props.Environment.Variables.AUTH_SCOPE, scope).toBe(scope);
      expect(props.Timeout, scope).toBe(10);
    }
  });

  it('allows cross-origin calls from any origin with the headers every call carries', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      ProtocolType: 'HTTP',
      CorsConfiguration: Match.objectLike({ AllowOrigins: ['*'], AllowHeaders: Match.arrayWith(['Authorization', 'X-Customer-Code', 'Content-Type']) }),
    });
  });

  it('serves the $default stage (auto-deployed) with a throttle and JSON access logs naming the customer, never a token', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
    const [stage] = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Stage'));
    expect(stage!.Properties).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 1000, ThrottlingBurstLimit: 2000 },
      AccessLogSettings: { DestinationArn: { 'Fn::GetAtt': [logicalIdOf(http.accessLogs), 'Arn'] } },
    });
    const format = JSON.parse(stage!.Properties.AccessLogSettings.Format);
    expect(format).toMatchObject({ requestId: '$context.requestId', routeKey: '$context.routeKey', status: '$context.status', customerCode: '$context.authorizer.customerCode' });
    expect(JSON.stringify(format)).not.toMatch(/header|authorization/i);
  });

  it('outputs the API, engine and data graph base URLs, without a trailing slash', () => {
    for (const name of ['ApiUrl', 'EngineBaseUrl', 'DataGraphBaseUrl']) template.hasOutput(name, {});
    const outputs = template.findOutputs('*');
    expect(outputs.ApiUrl!.Value).toEqual(outputs.EngineBaseUrl!.Value);
    expect(JSON.stringify(outputs.ApiUrl!.Value)).toContain('ApiEndpoint');
    expect(JSON.stringify(outputs.DataGraphBaseUrl!.Value)).toContain('/_api/v1');
  });
});
