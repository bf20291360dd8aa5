import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { CorsHttpMethod, HttpApi, HttpMethod, LogGroupLogDestination, type HttpStage, type IHttpRouteAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { AuthScope, HandlerName, Route } from '../../functions/routes';
import type { BaseFunction } from './base-function';
import { pascalCase, type FunctionFactory } from './function-factory';

/** Scopes that need a caller's token; `public` routes have no authorizer. */
export type ProtectedScope = Exclude<AuthScope, 'public'>;

/** Tells an authorizer function which scope it admits (read by functions/handlers/authorizer.ts). */
export const AUTH_SCOPE_ENV = 'AUTH_SCOPE';

/** Headers the browser may send on cross-origin calls (INTERFACE.md: every call carries them). */
const CORS_HEADERS = ['Authorization', 'X-Customer-Code', 'Content-Type'];

/**
 * The $default stage's throttle: a guard against runaway cost and noisy clients, far below the
 * account's 10,000 requests/s; raise it here when real traffic needs more.
 */
export const API_THROTTLE = { rateLimit: 1000, burstLimit: 2000 } as const;

/** One JSON line per request: who (customer, never a token), what route, how it ended. */
const ACCESS_LOG_FORMAT = JSON.stringify({
  requestId: '$context.requestId',
  time: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  method: '$context.httpMethod',
  routeKey: '$context.routeKey',
  path: '$context.path',
  status: '$context.status',
  responseLength: '$context.responseLength',
  latencyMs: '$context.responseLatency',
  integrationLatencyMs: '$context.integrationLatency',
  customerCode: '$context.authorizer.customerCode',
  authorizerError: '$context.authorizer.error',
  integrationError: '$context.integrationErrorMessage',
});

/** How long API Gateway reuses an authorizer decision for the same Authorization + X-Customer-Code. */
export const AUTHORIZER_CACHE_TTL = Duration.minutes(5);

export interface HttpApiRoutesProps {
  readonly routes: readonly Route[];
  readonly functions: FunctionFactory;
}

/**
 * The HTTP API, created from the route table: one function per handler, one route per entry,
 * and one Lambda authorizer per protected scope the table uses.
 */
export class HttpApiRoutes extends Construct {
  readonly api: HttpApi;
  /** The $default stage (served at the endpoint's root), with access logs and a throttle. */
  readonly stage: HttpStage;
  readonly accessLogs: LogGroup;
  /** One function per handler name used in the routes. */
  readonly handlerFunctions: ReadonlyMap<HandlerName, BaseFunction>;
  /** One authorizer function per protected scope the routes use, told its scope by `AUTH_SCOPE`. */
  readonly authorizerFunctions: ReadonlyMap<ProtectedScope, BaseFunction>;

  constructor(scope: Construct, id: string, props: HttpApiRoutesProps) {
    super(scope, id);
    const { routes, functions } = props;
    this.api = new HttpApi(this, 'HttpApi', {
      description: 'Experience graph: orchestration engine and data graph',
      corsPreflight: {
        allowOrigins: ['*'],
        allowHeaders: CORS_HEADERS,
        allowMethods: [CorsHttpMethod.ANY],
        maxAge: Duration.days(1),
      },
      // Made below, to give it access logs and a throttle.
      createDefaultStage: false,
    });
    this.accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    this.stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: API_THROTTLE,
      accessLogSettings: { destination: new LogGroupLogDestination(this.accessLogs), format: AccessLogFormat.custom(ACCESS_LOG_FORMAT) },
    });

    // Authorizers: one per protected scope the route table uses (created with its first route),
    // each a function from the same code told its scope by AUTH_SCOPE. Separate functions
    // rather than one reading the route keep the scope explicit and the cache per scope.
    const authorizerFunctions = new Map<ProtectedScope, BaseFunction>();
    const authorizers = new Map<ProtectedScope, IHttpRouteAuthorizer>();
    const authorizerFor = (authScope: ProtectedScope): IHttpRouteAuthorizer => {
      const existing = authorizers.get(authScope);
      if (existing) return existing;
      const fn = functions.create(this, `${pascalCase(authScope)}AuthorizerFunction`, 'authorizer', {
        description: `Lambda authorizer for '${authScope}' routes`,
        environment: { [AUTH_SCOPE_ENV]: authScope },
      });
      const authorizer = new HttpLambdaAuthorizer(`${pascalCase(authScope)}Authorizer`, fn, {
        authorizerName: `${authScope}-authorizer`,
        responseTypes: [HttpLambdaResponseType.SIMPLE],
        // Both headers are the cache key: a decision is reused only for the same token and customer.
        identitySource: ['$request.header.Authorization', '$request.header.X-Customer-Code'],
        resultsCacheTtl: AUTHORIZER_CACHE_TTL,
      });
      authorizerFunctions.set(authScope, fn);
      authorizers.set(authScope, authorizer);
      return authorizer;
    };

    // One function per handler the route table uses.
    const handlerFunctions = new Map<HandlerName, BaseFunction>();
    for (const name of new Set(routes.map((r) => r.handler))) {
      handlerFunctions.set(name, functions.create(this, `${pascalCase(name)}Function`, name, { description: `HTTP handler '${name}'` }));
    }
    this.handlerFunctions = handlerFunctions;
    this.authorizerFunctions = authorizerFunctions;

    // One integration per handler (one invoke permission each), one route per table entry.
    const integrations = new Map(
      [...handlerFunctions].map(([name, fn]) => [name, new HttpLambdaIntegration(`${pascalCase(name)}Integration`, fn)]),
    );
    for (const route of routes) {
      this.api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: integrations.get(route.handler)!,
        authorizer: route.auth === 'public' ? undefined : authorizerFor(route.auth),
      });
    }
  }
}
