import type { Clock, Ids } from './ports/clock';
import type { HttpClient } from './ports/http-client';
import type { Store } from './ports/store';

/**
 * Everything a handler needs from the outside world, passed in (never imported), so that
 * the same handler runs in Lambda (AWS adapters) and in the local host (local adapters).
 */
export interface Deps {
  store: Store;
  httpClient: HttpClient;
  clock: Clock;
  ids: Ids;
}
