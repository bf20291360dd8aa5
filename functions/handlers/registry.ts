import type { Deps } from '../deps';
import type { ApiHandler } from '../http/api-event';
import type { HandlerName } from '../routes';
import * as engineConfig from './engine-config';
import * as graphCollections from './graph-collections';
import * as graphRecords from './graph-records';
import * as graphBuckets from './graph-buckets';
import * as engineQuery from './engine-query';
import * as graphEvents from './graph-events';
import * as graphJobs from './graph-jobs';
import * as health from './health';
import * as triggers from './triggers';
import * as sampleData from './sample-data';

/**
 * Handler factories by name, for the local host. The CDK stack bundles
 * `functions/handlers/<name>.ts` instead; a test checks that both agree with the route table.
 */
export const HANDLER_FACTORIES: Record<HandlerName, (deps: Deps) => ApiHandler> = {
  health: health.create,
  'engine-query': engineQuery.create,
  'engine-config': engineConfig.create,
  'sample-data': sampleData.create,
  'graph-collections': graphCollections.create,
  'graph-records': graphRecords.create,
  'graph-buckets': graphBuckets.create,
  'graph-events': graphEvents.create,
  'graph-jobs': graphJobs.create,
  triggers: triggers.create,
};
