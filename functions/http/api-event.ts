import type {
  APIGatewayProxyEventV2WithLambdaAuthorizer,
  APIGatewayProxyStructuredResultV2,
} from 'aws-lambda';
import type { AuthScope } from '../routes';

/** What the Lambda authorizer puts in `requestContext.authorizer.lambda`. */
export interface AuthorizerContext {
  customerCode: string;
  scope: AuthScope;
}

/** The event every HTTP handler receives: API Gateway HTTP API (payload 2.0) with our authorizer context. */
export type ApiEvent = APIGatewayProxyEventV2WithLambdaAuthorizer<AuthorizerContext>;

/** The structured result every HTTP handler returns. */
export type ApiResult = APIGatewayProxyStructuredResultV2;

/** An HTTP handler: the same function runs in Lambda and in the local host. */
export type ApiHandler = (event: ApiEvent) => Promise<ApiResult>;
