import { mkdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createTableInput } from '../aws/table';

/** The parts of dynalite (CommonJS, untyped) that we use. */
interface DynaliteOptions {
  path?: string;
  createTableMs?: number;
  deleteTableMs?: number;
  updateTableMs?: number;
}
type Dynalite = (options: DynaliteOptions) => Server;

/** The LevelDB class dynalite itself uses (resolved from dynalite, whose dependency it is). */
interface LevelDb {
  open(): Promise<void>;
  close(): Promise<void>;
}
type LevelClass = new (path: string) => LevelDb;

const require = createRequire(import.meta.url);
const dynalite = require('dynalite') as Dynalite;
const requireFromDynalite = createRequire(require.resolve('dynalite'));

export interface LocalDynamo {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  tableName: string;
  client: DynamoDBDocumentClient;
  /** Destroys the client, closes the server and the LevelDB store. */
  stop(): Promise<void>;
}

export interface LocalDynamoOptions {
  /** Folder for the LevelDB store (created if missing); in memory when absent. */
  path?: string;
  tableName: string;
}

/**
 * Starts dynalite in this process on 127.0.0.1 (a free port) and makes sure the table
 * exists, so the real DynamoDB adapter runs over the DynamoDB wire protocol locally.
 */
export async function startLocalDynamo(options: LocalDynamoOptions): Promise<LocalDynamo> {
  const { path, tableName } = options;
  if (path) {
    await mkdir(path, { recursive: true });
    await checkDataFolderFree(path);
  }

  const server = dynalite({ path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', onError);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;

  const base = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 2,
  });
  const client = DynamoDBDocumentClient.from(base, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      // DynamoDBDocumentClient.destroy() is a no-op: destroy the wrapped client (its sockets).
      base.destroy();
      await new Promise<void>((resolve, reject) => {
        // dynalite's close() waits for the HTTP server, then closes LevelDB (releasing its lock).
        server.close((err?: Error) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
    })();
    return stopped;
  };

  try {
    await ensureTable(base, tableName);
  } catch (err) {
    await stop().catch(() => undefined);
    throw new Error(
      `Could not prepare the local DynamoDB table ${tableName}` +
        (path ? ` in ${path} (is another process using this data folder?)` : '') +
        `: ${(err as Error).message}`,
      { cause: err },
    );
  }

  return { endpoint, tableName, client, stop };
}

async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
      if (Table?.TableStatus === 'ACTIVE') return;
      // CREATING/UPDATING last 0 ms here, but the switch happens on a timer: wait a tick.
      await new Promise((resolve) => setTimeout(resolve, 5));
    } catch (err) {
      if ((err as Error).name !== 'ResourceNotFoundException') throw err;
      try {
        await client.send(new CreateTableCommand(createTableInput(tableName)));
      } catch (createErr) {
        if ((createErr as Error).name !== 'ResourceInUseException') throw createErr;
      }
    }
  }
  throw new Error(`table ${tableName} did not become ACTIVE`);
}

/**
 * dynalite opens LevelDB lazily and, when that fails (a folder locked by another process or
 * another instance in this one), throws from inside a request callback, which kills the
 * process. So open the folder once ourselves first and turn a lock into a clear error.
 */
async function checkDataFolderFree(path: string): Promise<void> {
  const { Level } = requireFromDynalite('level') as { Level: LevelClass };
  const db = new Level(path);
  try {
    await db.open();
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    const locked = cause?.code === 'LEVEL_LOCKED' || /lock/i.test(String((err as Error).message));
    throw new Error(
      locked
        ? `The local DynamoDB data folder ${path} is in use by another process (or another local host in this one); stop it first`
        : `Could not open the local DynamoDB data folder ${path}: ${(err as Error).message}`,
      { cause: err },
    );
  }
  await db.close();
}
