import type {
  APIGatewayRequestAuthorizerEventV2,
  APIGatewaySimpleAuthorizerResult,
  APIGatewaySimpleAuthorizerWithContextResult,
} from 'aws-lambda';
import { Authorizer } from '../core/tenancy/authorize';
import type { CredentialScope } from '../core/tenancy/credentials';
import type { Store } from '../ports/store';
import type { AuthorizerContext } from '../http/api-event';

type Result = APIGatewaySimpleAuthorizerResult | APIGatewaySimpleAuthorizerWithContextResult<AuthorizerContext>;

/**
 * The Lambda authorizer (simple responses). The same `Authorizer` decides in the local host;
 * API Gateway turns a refusal into 403 (401 when a header is missing entirely).
 */
export function create(store: Store, scope: CredentialScope): (event: APIGatewayRequestAuthorizerEventV2) => Promise<Result> {
  const authorizer = new Authorizer(store);
  return async (event) => {
    const headers = lowerCaseKeys(event.headers ?? {});
    const decision = await authorizer.authorize(
      { authorization: headers['authorization'], customerCode: headers['x-customer-code'] },
      scope,
    );
    if (!decision.allowed) return { isAuthorized: false };
    return { isAuthorized: true, context: { customerCode: decision.customerCode, scope: decision.scope } };
  };
}

function lowerCaseKeys(headers: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

let ready: ReturnType<typeof create> | undefined;

/** Entry point; `AUTH_SCOPE` is `engine` or `graph`, set by the stack per authorizer. */
export const handler = async (event: APIGatewayRequestAuthorizerEventV2): Promise<Result> => {
  if (!ready) {
    const { depsFromEnv } = await import('../adapters/aws/deps-from-env');
    const scope = process.env.AUTH_SCOPE;
    if (scope !== 'engine' && scope !== 'graph') throw new Error('AUTH_SCOPE must be engine or graph');
    ready = create(depsFromEnv().store, scope);
  }
  return ready(event);
};
