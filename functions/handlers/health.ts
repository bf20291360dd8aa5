import type { Deps } from '../deps';
import type { ApiHandler } from '../http/api-event';
import { json, withErrors } from '../http/respond';

/** `GET /health`: answers 200 without auth, so load balancers and people can probe the service. */
export function create(_deps?: Deps): ApiHandler {
  return withErrors(async () => json(200, { status: 'ok' }));
}

/** Entry point: needs no store or outbound client, so none is built (a smaller bundle, a faster cold start). */
export const handler = create();
