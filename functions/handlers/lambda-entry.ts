import type { Deps } from '../deps';
import type { ApiEvent, ApiHandler, ApiResult } from '../http/api-event';

/**
 * Turns a handler factory into a Lambda entry point. The dependencies are built once per
 * execution environment (on the first invocation), from the environment variables that
 * the CDK stack grants together with their permissions.
 */
export function lambdaHandler(create: (deps: Deps) => ApiHandler): (event: ApiEvent) => Promise<ApiResult> {
  let ready: Promise<ApiHandler> | undefined;
  return async (event) => {
    ready ??= import('../adapters/aws/deps-from-env').then(({ depsFromEnv }) => create(depsFromEnv()));
    return (await ready)(event);
  };
}
