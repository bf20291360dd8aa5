/**
 * The route table: the one source of truth for the HTTP surface. The local host routes
 * requests from it and the CDK stack creates one API Gateway route per entry, with one
 * Lambda function per handler. A new endpoint is one line here plus its handler.
 */

/** Who may call a route: the engine token, the data graph API key, or anyone. */
export type AuthScope = 'engine' | 'graph' | 'public';

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';

/** Handler names; each is the file `functions/handlers/<name>.ts` exporting `handler`. */
export const HANDLERS = [
  'health',
  'engine-query',
  'engine-config',
  'sample-data',
  'graph-collections',
  'graph-records',
  'graph-buckets',
  'graph-events',
  'graph-jobs',
  'triggers',
] as const;
export type HandlerName = (typeof HANDLERS)[number];

export interface Route {
  method: HttpMethod;
  /** API Gateway syntax: `{name}` is one path segment. */
  path: string;
  handler: HandlerName;
  auth: AuthScope;
}

const configRoutes = (kind: 'connections' | 'components' | 'templates', param: string): Route[] => [
  { method: 'GET', path: `/experience/${kind}`, handler: 'engine-config', auth: 'engine' },
  { method: 'GET', path: `/experience/${kind}/{${param}}`, handler: 'engine-config', auth: 'engine' },
  { method: 'PUT', path: `/experience/${kind}/{${param}}`, handler: 'engine-config', auth: 'engine' },
  { method: 'DELETE', path: `/experience/${kind}/{${param}}`, handler: 'engine-config', auth: 'engine' },
];

/** The data graph API's version prefix. */
export const GRAPH_PREFIX = '/_api/v1';

const graph = (handler: HandlerName, routes: [HttpMethod, string][]): Route[] =>
  routes.map(([method, path]) => ({ method, path: GRAPH_PREFIX + path, handler, auth: 'graph' }));

export const ROUTES: readonly Route[] = [
  { method: 'GET', path: '/health', handler: 'health', auth: 'public' },

  // INTERFACE.md "Orchestration engine"
  { method: 'POST', path: '/experience/components/_query', handler: 'engine-query', auth: 'engine' },
  { method: 'POST', path: '/experience/template/_query', handler: 'engine-query', auth: 'engine' },

  // The console forms of INTERFACE.md "Connection", "Component", "Template", as a REST API
  ...configRoutes('connections', 'connectionCode'),
  ...configRoutes('components', 'componentCode'),
  ...configRoutes('templates', 'templateCode'),
  // COMPAT.md: whole-environment export and import
  { method: 'GET', path: '/api/raw-engine-config', handler: 'engine-config', auth: 'engine' },
  { method: 'PUT', path: '/engine-config', handler: 'engine-config', auth: 'engine' },

  // INTERFACE.md "Data graph API" (every path under /_api/v1, "Versioning" rule 1)
  ...graph('graph-collections', [
    ['POST', '/collections'],
    ['GET', '/collections'],
    ['GET', '/collections/{collectionCode}'],
    ['DELETE', '/collections/{collectionCode}'],
    ['POST', '/collections/{collectionCode}/schema'],
    ['GET', '/collections/{collectionCode}/schema'],
    ['PUT', '/applications/data-graph/pages/source/_configureLeftNav'],
    ['GET', '/applications/data-graph/pages/source/_configureLeftNav'],
  ]),
  ...graph('graph-records', [
    ['POST', '/collections/{collectionCode}/records'],
    ['GET', '/collections/{collectionCode}/records/{dataRecordIdentifier}'],
    ['PATCH', '/collections/{collectionCode}/records/{dataRecordIdentifier}'],
    ['DELETE', '/collections/{collectionCode}/records/{dataRecordIdentifier}'],
    ['POST', '/collections/{collectionCode}/records/_query'],
    ['POST', '/collections/{collectionCode}/records/_scroll'],
  ]),
  ...graph('graph-buckets', [
    ['GET', '/buckets'],
    ['PUT', '/buckets/{bucketCode}'],
    ['GET', '/buckets/{bucketCode}'],
    ['DELETE', '/buckets/{bucketCode}'],
    ['GET', '/buckets/{bucketCode}/files'],
    ['DELETE', '/buckets/{bucketCode}/files'],
    ['PUT', '/buckets/{bucketCode}/files/{filename}'],
    ['GET', '/buckets/{bucketCode}/files/{filename}'],
    ['DELETE', '/buckets/{bucketCode}/files/{filename}'],
    ['POST', '/buckets/{bucketCode}/upload'],
  ]),
  ...graph('graph-events', [['GET', '/events']]),
  // INTERFACE.md "Job, job definition"; the download and import bodies
  ...graph('graph-jobs', [
    ['POST', '/job-definitions'],
    ['GET', '/job-definitions'],
    ['GET', '/job-definitions/{jobDefinitionCode}'],
    ['DELETE', '/job-definitions/{jobDefinitionCode}'],
    ['POST', '/job-definitions/{jobDefinitionCode}/_execute'],
    ['POST', '/job-types/{jobType}/_execute'],
    ['GET', '/jobs'],
    ['GET', '/jobs/{jobId}'],
    ['POST', '/buckets/{bucketCode}/files/_download-from-webservice'],
    ['POST', '/buckets/{bucketCode}/files/_import'],
  ]),
  // INTERFACE.md "Trigger creation": at the host root, with the data graph's headers
  { method: 'POST', path: '/triggers', handler: 'triggers', auth: 'graph' },
  { method: 'GET', path: '/triggers', handler: 'triggers', auth: 'graph' },
  { method: 'GET', path: '/triggers/{triggerCode}', handler: 'triggers', auth: 'graph' },
  { method: 'DELETE', path: '/triggers/{triggerCode}', handler: 'triggers', auth: 'graph' },

  // INTERFACE.md "Sample data web service": public and read-only
  { method: 'GET', path: '/api/collections/{collectionCode}', handler: 'sample-data', auth: 'public' },
];

/** `GET /experience/connections/{connectionCode}`: the key API Gateway puts in `routeKey`. */
export function routeKey(route: Pick<Route, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}
