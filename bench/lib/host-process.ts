/**
 * The local host in a process of its own, for benchmarks: `startLocalHost` on a free port of
 * 127.0.0.1 with one bench customer, DynamoDB in memory unless `--data-dir <folder>` is given
 * (then dynalite keeps its LevelDB under `<folder>/dynamodb` and the bucket files under
 * `<folder>/files`, as `npm start` does with its data folder). Prints `{"url": ...}` on stdout
 * when ready; stops when stdin closes or on SIGTERM. Obeys the profile commands of
 * `profiler.ts` on stdin (`profile-start <name>` / `profile-stop <name> <dir>`) and, with
 * `--count-store-calls`, counts its DynamoDB requests for `store-calls.ts`.
 *
 * Run alone: `npx tsx bench/lib/host-process.ts [--data-dir <folder>]` (profile: `node --cpu-prof --import tsx bench/lib/host-process.ts`).
 */
import { startLocalHost } from '../../functions/local-host/start';
import { exitWhenParentLeaves } from './child';
import { BENCH_CUSTOMER } from './customer';
import { serveProfileCommands } from './profiler';
import { serveStoreCallCommands } from './store-calls';

const dataDirIndex = process.argv.indexOf('--data-dir');
const dataDir = dataDirIndex >= 0 ? process.argv[dataDirIndex + 1] : undefined;

const host = await startLocalHost({ port: 0, customers: [BENCH_CUSTOMER], tableName: 'bench', dataDir });
exitWhenParentLeaves(() => host.stop());
serveProfileCommands();
if (process.argv.includes('--count-store-calls')) {
  // The host's DynamoDB adapter (wrapped by the local stream twin) and its SDK client: private
  // fields, read here only to add a counting middleware (the event log uses the same client).
  const inner = (host.deps.store as unknown as { inner?: { client?: Parameters<typeof serveStoreCallCommands>[0] } }).inner;
  if (!inner?.client?.middlewareStack) throw new Error('--count-store-calls: the host store has no inner DynamoDB client to count');
  serveStoreCallCommands(inner.client);
}
process.stdout.write(JSON.stringify({ url: host.url, pid: process.pid, dataDir: dataDir ?? null }) + '\n');
