import { querySampleData } from '../core/sample-data/query';
import type { Deps } from '../deps';
import type { ApiHandler } from '../http/api-event';
import { json, pathParam, withErrors } from '../http/respond';

/**
 * `GET /api/collections/{collectionCode}` (INTERFACE.md "Sample data web service"): public and
 * read-only, so it ignores any credentials; answers 200 with the JSON array of matching records.
 * The dataset is bundled with the function, so no dependency is used.
 */
export function create(_deps?: Deps): ApiHandler {
  return withErrors(async (event) => {
    const collectionCode = pathParam(event, 'collectionCode');
    return json(200, querySampleData(collectionCode, event.rawQueryString ?? ''));
  });
}

/** Entry point: needs no store or outbound client, so none is built (a smaller bundle, a faster cold start). */
export const handler = create();
