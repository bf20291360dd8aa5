/**
 * The local host in a process of its own, for benchmarks: `startLocalHost` on a free port of
 * 127.0.0.1 with one bench customer, DynamoDB in memory unless `--data-dir <folder>` is given
 * (then dynalite keeps its LevelDB under `<folder>/dynamodb` and the bucket files under
 * `<folder>/files`, as `npm start` does with its data folder). Prints `{"url": ...}` on stdout
 * when ready; stops when stdin closes or on SIGTERM. Obeys the profile commands of
 * `profiler.ts` on stdin (`profile-start <name>` / `profile-stop <name> <dir>`).
 *
 * Run alone: `npx tsx bench/lib/host-process.ts [--data-dir <folder>]` (profile: `node --cpu-prof --import tsx bench/lib/host-process.ts`).
 */
import { startLocalHost } from '../../functions/local-host/start';
import { exitWhenParentLeaves } from './child';
import { BENCH_CUSTOMER } from './customer';
import { serveProfileCommands } from './profiler';

const dataDirIndex = process.argv.indexOf('--data-dir');
const dataDir = dataDirIndex >= 0 ? process.argv[dataDirIndex + 1] : undefined;

const host = await startLocalHost({ port: 0, customers: [BENCH_CUSTOMER], tableName: 'bench', dataDir });
exitWhenParentLeaves(() => host.stop());
serveProfileCommands();
process.stdout.write(JSON.stringify({ url: host.url, pid: process.pid, dataDir: dataDir ?? null }) + '\n');
