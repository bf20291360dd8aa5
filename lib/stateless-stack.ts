import { CfnOutput, CrossStackReferences, ReferenceStrength, Stack, type StackProps } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { GRAPH_PREFIX, ROUTES, type Route } from '../functions/routes';
import { FunctionFactory } from './constructs/function-factory';
import { GraphEvents } from './constructs/graph-events';
import { HttpApiRoutes } from './constructs/http-api';
import { Jobs } from './constructs/jobs';

export interface StatelessStackProps extends StackProps {
  /** The single table, from the stateful stack; its stream feeds the stream publisher. */
  readonly table: ITable;
  /** The files bucket, from the stateful stack. */
  readonly filesBucket: IBucket;
  /** The data graph bus, from the stateful stack. */
  readonly eventBus: IEventBus;
  /** The HTTP surface. @default ROUTES (functions/routes.ts); other values are for tests. */
  readonly routes?: readonly Route[];
}

/**
 * Everything that is code or wiring, safe to destroy and redeploy (the data lives in the
 * stateful stack): the functions, the HTTP API from the route table, the event wiring (stream
 * -> publisher -> bus -> rule -> dispatcher and event log), the job state machines, the
 * schedule group of job definitions and the job reaper.
 */
export class StatelessStack extends Stack {
  readonly functions: FunctionFactory;
  readonly jobs: Jobs;
  readonly events: GraphEvents;
  readonly http: HttpApiRoutes;

  constructor(scope: Construct, id: string, props: StatelessStackProps) {
    super(scope, id, props);
    // Export/import (strong): the stateful stack cannot be deleted, nor a resource swapped,
    // while this stack uses it. That is the protection a data stack wants; the price is
    // deploying this stack first when a use of a resource is removed (lib/README.md).
    CrossStackReferences.of(this).consume(ReferenceStrength.STRONG);
    const { table, filesBucket, eventBus, routes = ROUTES } = props;

    this.functions = new FunctionFactory({ table, filesBucket, eventBus });
    // Jobs first: the HTTP and event functions that start jobs or schedule them need them.
    this.jobs = new Jobs(this, 'Jobs', { functions: this.functions });
    this.events = new GraphEvents(this, 'Events', { table, eventBus, functions: this.functions });
    this.http = new HttpApiRoutes(this, 'Http', { routes, functions: this.functions });

    // The $default stage serves at the endpoint's root; no trailing slash, so `$API_URL/health` works.
    const apiUrl = this.http.api.apiEndpoint;
    new CfnOutput(this, 'ApiUrl', { value: apiUrl, description: 'Base URL of the HTTP API' });
    new CfnOutput(this, 'EngineBaseUrl', { value: apiUrl, description: 'Orchestration engine base URL ({engine_url})' });
    new CfnOutput(this, 'DataGraphBaseUrl', { value: `${apiUrl}${GRAPH_PREFIX}`, description: 'Data graph API base URL' });
  }
}
