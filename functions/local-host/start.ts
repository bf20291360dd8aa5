import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { DynamoDbStore } from '../adapters/aws/dynamodb-store';
import { UndiciHttpClient } from '../adapters/http/undici-http-client';
import { startLocalDynamo } from '../adapters/local/local-dynamo';
import { Authorizer } from '../core/tenancy/authorize';
import { saveCustomer, type CustomerCredentials } from '../core/tenancy/credentials';
import type { Deps } from '../deps';
import { randomIds, systemClock } from '../ports/clock';
import { createLocalServer } from './server';

export interface LocalHostOptions {
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** Data folder (DynamoDB under `<dataDir>/dynamodb`); in memory when absent. */
  dataDir?: string;
  /** Customers whose credentials are registered at start (the bootstrap tenant). */
  customers: CustomerCredentials[];
  tableName?: string;
}

export interface LocalHost {
  url: string;
  port: number;
  deps: Deps;
  stop(): Promise<void>;
}

/**
 * The embedded local host: dynalite for DynamoDB (the same adapter as in AWS), undici for
 * outbound calls, and one HTTP server serving every route of the route table.
 */
export async function startLocalHost(options: LocalHostOptions): Promise<LocalHost> {
  const tableName = options.tableName ?? 'experience-graph';
  const dynamo = await startLocalDynamo({ tableName, path: options.dataDir ? join(options.dataDir, 'dynamodb') : undefined });
  const httpClient = new UndiciHttpClient();
  const deps: Deps = {
    store: new DynamoDbStore({ tableName, client: dynamo.client }),
    httpClient,
    clock: systemClock,
    ids: randomIds,
  };
  for (const customer of options.customers) await saveCustomer(deps.store, customer);

  const server = createLocalServer(deps, new Authorizer(deps.store, () => deps.clock.now(), 0));
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  let stopping: Promise<void> | undefined;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    deps,
    stop: () =>
      (stopping ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await httpClient.close();
        await dynamo.stop();
      })()),
  };
}
