/**
 * Counts the DynamoDB requests a bench child makes, by operation and by the kind of item they
 * touch (the partition key's prefix: REC = record, IDX = index entry, EVENTS = event log,
 * EVENTS-COUNT = its counter, JOB, TRIGGER, GRAPH = configuration, ...), so a suite can say
 * how many store requests and items one record write or one imported record costs. A
 * middleware on the SDK client's `initialize` step (input still in document form): a few
 * property reads per request, nothing sent or changed.
 *
 * The parent writes `store-calls <name>` on the child's stdin; the child answers the counts
 * since the previous such line (then starts again from zero) as `{"storeCalls": name, counts}`.
 */
import { createInterface } from 'node:readline';
import type { Child } from './child';

export interface StoreCallCounts {
  /** Per operation (BatchWriteItem, PutItem, ...): requests, and items by `verb:prefix`. */
  [operation: string]: { calls: number; items: Record<string, number> };
}

interface MiddlewareClient {
  middlewareStack: {
    add(middleware: (next: (args: { input: unknown }) => Promise<unknown>, context: { commandName?: string }) => (args: { input: unknown }) => Promise<unknown>, options: { step: 'initialize'; name: string }): void;
  };
}

const prefixOf = (pk: unknown): string => {
  const value = typeof pk === 'string' ? pk : typeof (pk as { S?: unknown })?.S === 'string' ? (pk as { S: string }).S : '?';
  const hash = value.indexOf('#');
  return hash < 0 ? value : value.slice(0, hash);
};

function itemsOf(operation: string, input: Record<string, any>): [string, number][] {
  const out = new Map<string, number>();
  const add = (key: string) => out.set(key, (out.get(key) ?? 0) + 1);
  switch (operation) {
    case 'BatchWriteItem':
      for (const requests of Object.values(input.RequestItems ?? {}) as any[][]) {
        for (const r of requests) {
          if (r.PutRequest) add(`put:${prefixOf(r.PutRequest.Item?.pk)}`);
          else if (r.DeleteRequest) add(`delete:${prefixOf(r.DeleteRequest.Key?.pk)}`);
        }
      }
      break;
    case 'BatchGetItem':
      for (const request of Object.values(input.RequestItems ?? {}) as any[]) for (const key of request.Keys ?? []) add(`get:${prefixOf(key.pk)}`);
      break;
    case 'PutItem':
      add(`put:${prefixOf(input.Item?.pk)}`);
      break;
    case 'GetItem':
      add(`get:${prefixOf(input.Key?.pk)}`);
      break;
    case 'DeleteItem':
      add(`delete:${prefixOf(input.Key?.pk)}`);
      break;
    case 'UpdateItem':
      add(`update:${prefixOf(input.Key?.pk)}`);
      break;
    case 'Query':
      add(`query:${prefixOf(input.ExpressionAttributeValues?.[':pk'])}`);
      break;
    default:
      add(`other`);
  }
  return [...out];
}

/** In a child: counts the requests of `client` and answers the `store-calls` commands read from stdin. */
export function serveStoreCallCommands(client: MiddlewareClient): void {
  let counts: StoreCallCounts = {};
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const operation = (context.commandName ?? 'Unknown').replace(/Command$/, '');
      const entry = (counts[operation] ??= { calls: 0, items: {} });
      entry.calls++;
      for (const [kind, n] of itemsOf(operation, (args.input ?? {}) as Record<string, unknown>)) entry.items[kind] = (entry.items[kind] ?? 0) + n;
      return next(args);
    },
    { step: 'initialize', name: 'benchStoreCallCounter' },
  );
  createInterface({ input: process.stdin }).on('line', (line) => {
    const [command, name] = line.trim().split(/\s+/);
    if (command !== 'store-calls' || !name) return;
    const snapshot = counts;
    counts = {};
    process.stdout.write(JSON.stringify({ storeCalls: name, counts: snapshot }) + '\n');
  });
}

/** In the parent: the child's store requests since the previous call (the first call only resets). */
export async function takeStoreCalls(child: Child<unknown>, name: string): Promise<StoreCallCounts> {
  const answer = child.nextLine<{ storeCalls?: string; counts?: StoreCallCounts }>((l) => l.storeCalls === name, 30_000);
  child.process.stdin!.write(`store-calls ${name}\n`);
  return (await answer).counts ?? {};
}

/** Requests and items per unit of work (e.g. per record), with the totals. */
export function perUnit(counts: StoreCallCounts, units: number) {
  let calls = 0;
  let items = 0;
  const byOperation: Record<string, { callsPerUnit: number; itemsPerUnit: Record<string, number> }> = {};
  const itemsByKind: Record<string, number> = {};
  for (const [operation, { calls: c, items: its }] of Object.entries(counts)) {
    calls += c;
    const perKind: Record<string, number> = {};
    for (const [kind, n] of Object.entries(its)) {
      items += n;
      perKind[kind] = n / units;
      itemsByKind[kind] = (itemsByKind[kind] ?? 0) + n / units;
    }
    byOperation[operation] = { callsPerUnit: c / units, itemsPerUnit: perKind };
  }
  return { units, requests: calls, items, requestsPerUnit: calls / units, itemsPerUnit: items / units, itemsPerUnitByKind: itemsByKind, byOperation };
}

/** The sum of two sets of counts. */
export function addCounts(a: StoreCallCounts, b: StoreCallCounts): StoreCallCounts {
  const out: StoreCallCounts = structuredClone(a);
  for (const [operation, { calls, items }] of Object.entries(b)) {
    const entry = (out[operation] ??= { calls: 0, items: {} });
    entry.calls += calls;
    for (const [kind, n] of Object.entries(items)) entry.items[kind] = (entry.items[kind] ?? 0) + n;
  }
  return out;
}

/** One line of a report: requests and items per unit. */
export function storeCallsLine(x: ReturnType<typeof perUnit>, unit: string): string {
  const kinds = Object.entries(x.itemsPerUnitByKind)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n.toFixed(2)}`)
    .join(', ');
  const ops = Object.entries(x.byOperation)
    .sort((a, b) => b[1].callsPerUnit - a[1].callsPerUnit)
    .map(([op, v]) => `${op} ${v.callsPerUnit.toFixed(3)}`)
    .join(', ');
  return `store per ${unit}: ${x.requestsPerUnit.toFixed(3)} requests, ${x.itemsPerUnit.toFixed(2)} items (${kinds}); requests: ${ops}`;
}
