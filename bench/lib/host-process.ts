/**
 * The local host in a process of its own, for benchmarks: `startLocalHost` on a free port of
 * 127.0.0.1 with DynamoDB in memory and one bench customer. Prints `{"url": ...}` on stdout
 * when ready; stops when stdin closes or on SIGTERM.
 *
 * Run alone: `npx tsx bench/lib/host-process.ts` (profile: `node --cpu-prof --import tsx bench/lib/host-process.ts`).
 */
import { startLocalHost } from '../../functions/local-host/start';
import { exitWhenParentLeaves } from './child';
import { BENCH_CUSTOMER } from './customer';

const host = await startLocalHost({ port: 0, customers: [BENCH_CUSTOMER], tableName: 'bench' });
exitWhenParentLeaves(() => host.stop());
process.stdout.write(JSON.stringify({ url: host.url, pid: process.pid }) + '\n');
