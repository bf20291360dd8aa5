/**
 * Summarises V8 CPU profiles (`node --cpu-prof`): self and inclusive time per function, and
 * self time per file / package. For finding what dominates the host's time in a bench run:
 *
 *   BENCH_HOST_NODE_ARGS="--cpu-prof --cpu-prof-dir=bench/results/profiles" npm run bench
 *   npx tsx bench/lib/profile-summary.ts bench/results/profiles/*.cpuprofile [--top 30]
 *
 * `summarizeProfile` gives the same tables as data (the suites put them in their result files).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileRow {
  name: string;
  ms: number;
  /** Percent of the busy (non-idle) time of the profile. */
  percent: number;
}

export interface ProfileSummary {
  sampledMs: number;
  busyMs: number;
  idleMs: number;
  /** Self time by package / folder (node:<module> for Node.js internals); native frames count for their nearest JavaScript caller's package. */
  selfByPackage: ProfileRow[];
  /** Self time by coarse group: dynalite and its LevelDB, the AWS SDK, the app's folders, Node.js, GC. */
  selfByGroup: ProfileRow[];
  /** Self time by function. */
  selfByFunction: ProfileRow[];
  /** Inclusive time by function (the root left out). */
  inclusiveByFunction: ProfileRow[];
  /**
   * Time under each dynalite action (its `actions/<operation>.js` on the stack; BatchWriteItem
   * and BatchGetItem run putItem / deleteItem / getItem per item), under dynalite's shared
   * table code only, or under neither. Synchronous stacks only: LevelDB's callbacks resume
   * outside the action that started them.
   */
  byDynaliteAction: ProfileRow[];
}

const shortUrl = (url: string) => {
  const clean = url.replace(/^file:\/\//, '');
  const nm = clean.lastIndexOf('node_modules/');
  if (nm >= 0) return clean.slice(nm + 'node_modules/'.length);
  const repo = clean.indexOf('/functions/');
  if (repo >= 0) return clean.slice(repo + 1);
  const test = clean.indexOf('/test/');
  if (test >= 0) return clean.slice(test + 1);
  const bench = clean.indexOf('/bench/');
  if (bench >= 0) return clean.slice(bench + 1);
  return clean || '(native)';
};
const packageOf = (url: string) => {
  const s = shortUrl(url);
  if (s === '(native)') return '(native / V8)';
  if (s.startsWith('node:')) return s.replace(/^node:(internal\/)?/, 'node:').split(':')[0] + ':' + s.replace(/^node:(internal\/)?/, '').split(':')[0];
  if (s.startsWith('functions/')) return s.split('/').slice(0, 3).join('/');
  const parts = s.split('/');
  return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
};

/** The packages dynalite runs on (its server and its LevelDB stack). */
const DYNALITE = new Set(['dynalite', 'async', 'big.js', 'buffer-crc32', 'lazy', 'level', 'abstract-level', 'classic-level', 'memory-level', 'browser-level', 'level-transcoder', 'level-supports', 'lock', 'once', 'module-error', 'functional-red-black-tree', 'maybe-combine-errors', 'napi-macros', 'node-gyp-build', 'catering', 'queue-microtask']);

/** A coarse group of a package / folder of `selfByPackage`. */
export function groupOf(pkg: string): string {
  if (DYNALITE.has(pkg)) return 'dynalite + LevelDB (the store server, in process)';
  if (pkg.startsWith('@aws-sdk/') || pkg.startsWith('@smithy/') || pkg.startsWith('@aws-crypto/') || pkg === 'tslib' || pkg === 'fast-xml-parser' || pkg === 'uuid') return 'AWS SDK (client side: marshalling, middleware, HTTP handler)';
  if (pkg.startsWith('functions/')) return `app: ${pkg}`;
  if (pkg.startsWith('node:')) return 'Node.js internals (http, net, streams, timers, ...)';
  if (pkg === '(garbage collector)') return '(garbage collector)';
  if (pkg === '(program)' || pkg === '(native / V8)') return '(program / native)';
  return `other: ${pkg}`;
}

/** Self and inclusive time of a `.cpuprofile` file, `top` rows per function table. */
export function summarizeProfile(file: string, top = 30): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const key = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'}  ${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const perPackage = new Map<string, number>();
  const perAction = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000; // ms spent in this sample
    const node = byId.get(profile.samples[i])!;
    total += dt;
    const name = node.callFrame.functionName;
    if (name === '(idle)') {
      idle += dt;
      continue;
    }
    self.set(key(node), (self.get(key(node)) ?? 0) + dt);
    // Native frames (no URL: builtins, N-API bindings such as LevelDB's) are charged to the
    // package of their nearest JavaScript caller, so a binding's time shows with its package.
    let charged = node;
    for (let id = parent.get(node.id); charged.callFrame.url === '' && id !== undefined; id = parent.get(id)) charged = byId.get(id)!;
    const pkg = name === '(garbage collector)' ? '(garbage collector)' : name === '(program)' ? '(program)' : packageOf(charged.callFrame.url);
    perPackage.set(pkg, (perPackage.get(pkg) ?? 0) + dt);
    let action: string | undefined;
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const url = byId.get(id)!.callFrame.url;
      const at = url.indexOf('dynalite/actions/');
      if (at >= 0) {
        action = `dynalite action ${url.slice(at + 'dynalite/actions/'.length)}`;
        break;
      }
      if (action === undefined && url.includes('dynalite/db/')) action = 'dynalite db/ (table look-up, locks, item reads and writes)';
    }
    action ??= 'not under dynalite (SDK client, HTTP, app, GC, ...)';
    perAction.set(action, (perAction.get(action) ?? 0) + dt);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const k = key(byId.get(id)!);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + dt);
    }
  }
  const busy = total - idle;
  const rows = (map: Map<string, number>, n: number): ProfileRow[] =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, ms]) => ({ name, ms, percent: (ms / busy) * 100 }));
  return {
    sampledMs: total,
    busyMs: busy,
    idleMs: idle,
    selfByPackage: rows(perPackage, 40),
    selfByGroup: rows(
      [...perPackage].reduce((m, [pkg, ms]) => m.set(groupOf(pkg), (m.get(groupOf(pkg)) ?? 0) + ms), new Map<string, number>()),
      40,
    ),
    selfByFunction: rows(self, top),
    inclusiveByFunction: rows(new Map([...inclusive].filter(([k]) => !k.startsWith('(root)'))), top),
    byDynaliteAction: rows(perAction, 40),
  };
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const args = process.argv.slice(2);
  const topIndex = args.indexOf('--top');
  const top = topIndex >= 0 ? Number(args[topIndex + 1]) : 30;
  const files = args.filter((a, i) => !a.startsWith('--') && (topIndex < 0 || i !== topIndex + 1));
  if (files.length === 0) {
    console.error('usage: tsx bench/lib/profile-summary.ts <file.cpuprofile>... [--top N]');
    process.exit(2);
  }
  for (const file of files) {
    const summary = summarizeProfile(file, top);
    const table = (title: string, list: ProfileRow[]) => {
      console.log(`\n${title}`);
      for (const row of list) console.log(`  ${row.percent.toFixed(1).padStart(5)} %  ${row.ms.toFixed(0).padStart(7)} ms  ${row.name}`);
    };
    console.log(`\n# ${file}: ${(summary.sampledMs / 1000).toFixed(1)} s sampled, ${(summary.busyMs / 1000).toFixed(1)} s busy (percentages are of busy time)`);
    table('self time by group', summary.selfByGroup);
    table('time by dynalite action (synchronous stacks)', summary.byDynaliteAction);
    table('self time by package / folder (node:<module> for Node.js internals)', summary.selfByPackage);
    table(`self time by function (top ${top})`, summary.selfByFunction);
    table(`inclusive time by function (top ${top})`, summary.inclusiveByFunction);
  }
}
