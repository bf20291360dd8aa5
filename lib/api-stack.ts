import { CfnOutput, CrossStackReferences, Duration, ReferenceStrength, Stack, type StackProps } from 'aws-cdk-lib';
import { CorsHttpMethod, HttpApi, HttpMethod, type IHttpRouteAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { fileURLToPath } from 'node:url';
import { ROUTES, type AuthScope, type HandlerName, type Route } from '../functions/routes';
import { BaseFunction } from './constructs/base-function';

export interface ApiStackProps extends StackProps {
  /** The single table, from the stateful stack. */
  readonly table: ITable;
  /** The HTTP surface. @default ROUTES (functions/routes.ts); other values are for tests. */
  readonly routes?: readonly Route[];
}

/** Scopes that need a caller's token; `public` routes have no authorizer. */
type ProtectedScope = Exclude<AuthScope, 'public'>;

/** Tells an authorizer function which scope it admits (read by functions/handlers/authorizer.ts). */
export const AUTH_SCOPE_ENV = 'AUTH_SCOPE';

/** Handlers that never touch the store, so they get no table (and no permission on it). */
const HANDLERS_WITHOUT_DATA: ReadonlySet<HandlerName> = new Set<HandlerName>(['health', 'sample-data']);

/** Headers the browser may send on cross-origin calls (INTERFACE.md: every call carries them). */
const CORS_HEADERS = ['Authorization', 'X-Customer-Code', 'Content-Type'];

/** `functions/handlers/<name>.ts`, resolved from this file so synth works from any cwd. */
function handlerEntry(name: string): string {
  return fileURLToPath(new URL(`../functions/handlers/${name}.ts`, import.meta.url));
}

/** `engine-query` -> `EngineQuery`, for construct ids. */
function pascalCase(name: string): string {
  return name.replace(/(^|-)([a-z0-9])/g, (_m, _dash, c: string) => c.toUpperCase());
}

/**
 * The stateless resources: the HTTP API, one function per handler and the authorizers, all
 * created from the route table (`functions/routes.ts`), so an endpoint cannot exist in the
 * local host only. Safe to destroy and redeploy; the data lives in the stateful stack.
 */
export class ApiStack extends Stack {
  readonly api: HttpApi;
  /** One function per handler name used in ROUTES. */
  readonly handlerFunctions: ReadonlyMap<HandlerName, BaseFunction>;
  /** One authorizer function per protected scope the routes use, told its scope by `AUTH_SCOPE`. */
  readonly authorizerFunctions: ReadonlyMap<ProtectedScope, BaseFunction>;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    // Export/import (strong): the stateful stack cannot be deleted, nor the table swapped,
    // while this stack uses it. That is the protection a data stack wants; the price is
    // deploying this stack first when a use of the table is removed (lib/README.md).
    CrossStackReferences.of(this).consume(ReferenceStrength.STRONG);
    const { table, routes = ROUTES } = props;

    this.api = new HttpApi(this, 'HttpApi', {
      description: 'Experience graph: orchestration engine and data graph',
      corsPreflight: {
        allowOrigins: ['*'],
        allowHeaders: CORS_HEADERS,
        allowMethods: [CorsHttpMethod.ANY],
        maxAge: Duration.days(1),
      },
    });

    // Authorizers: one per protected scope the route table uses (created with its first route),
    // each a function from the same code told its scope by AUTH_SCOPE. Separate functions
    // rather than one reading the route keep the scope explicit and the cache per scope.
    const authorizerFunctions = new Map<ProtectedScope, BaseFunction>();
    const authorizers = new Map<ProtectedScope, IHttpRouteAuthorizer>();
    const authorizerFor = (authScope: ProtectedScope): IHttpRouteAuthorizer => {
      const existing = authorizers.get(authScope);
      if (existing) return existing;
      const fn = new BaseFunction(this, `${pascalCase(authScope)}AuthorizerFunction`, {
        entry: handlerEntry('authorizer'),
        description: `Lambda authorizer for '${authScope}' routes`,
        // API Gateway waits at most 10 s for an authorizer.
        timeout: Duration.seconds(10),
        environment: { [AUTH_SCOPE_ENV]: authScope },
      }).useTable(table, 'read');
      const authorizer = new HttpLambdaAuthorizer(`${pascalCase(authScope)}Authorizer`, fn, {
        authorizerName: `${authScope}-authorizer`,
        responseTypes: [HttpLambdaResponseType.SIMPLE],
        identitySource: ['$request.header.Authorization', '$request.header.X-Customer-Code'],
        resultsCacheTtl: Duration.minutes(5),
      });
      authorizerFunctions.set(authScope, fn);
      authorizers.set(authScope, authorizer);
      return authorizer;
    };

    // One function per handler the route table uses.
    const handlerFunctions = new Map<HandlerName, BaseFunction>();
    for (const name of new Set(routes.map((r) => r.handler))) {
      const fn = new BaseFunction(this, `${pascalCase(name)}Function`, {
        entry: handlerEntry(name),
        description: `HTTP handler '${name}'`,
      });
      if (!HANDLERS_WITHOUT_DATA.has(name)) fn.useTable(table);
      handlerFunctions.set(name, fn);
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

    const apiUrl = this.api.url!;
    new CfnOutput(this, 'ApiUrl', { value: apiUrl, description: 'Base URL of the HTTP API' });
    new CfnOutput(this, 'EngineBaseUrl', { value: apiUrl, description: 'Orchestration engine base URL' });
    new CfnOutput(this, 'DataGraphBaseUrl', { value: `${apiUrl}_api/v1`, description: 'Data graph API base URL' });
    new CfnOutput(this, 'TableName', { value: table.tableName, description: 'The single DynamoDB table' });
  }
}
