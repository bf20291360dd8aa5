/**
 * Summarises V8 CPU profiles (`node --cpu-prof`): self and inclusive time per function, and
 * self time per file / package. For finding what dominates the host's time in a bench run:
 *
 *   BENCH_HOST_NODE_ARGS="--cpu-prof --cpu-prof-dir=bench/results/profiles" npm run bench
 *   npx tsx bench/lib/profile-summary.ts bench/results/profiles/*.cpuprofile [--top 30]
 */
import { readFileSync } from 'node:fs';

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

const args = process.argv.slice(2);
const topIndex = args.indexOf('--top');
const top = topIndex >= 0 ? Number(args[topIndex + 1]) : 30;
const files = args.filter((a, i) => !a.startsWith('--') && i !== topIndex + 1);
if (files.length === 0) {
  console.error('usage: tsx bench/lib/profile-summary.ts <file.cpuprofile>... [--top N]');
  process.exit(2);
}

const shortUrl = (url: string) => {
  const clean = url.replace(/^file:\/\//, '');
  const nm = clean.lastIndexOf('node_modules/');
  if (nm >= 0) return clean.slice(nm + 'node_modules/'.length);
  const repo = clean.indexOf('/functions/');
  if (repo >= 0) return clean.slice(repo + 1);
  const test = clean.indexOf('/test/');
  if (test >= 0) return clean.slice(test + 1);
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

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const key = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'}  ${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const perPackage = new Map<string, number>();
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
    const pkg = name === '(garbage collector)' ? '(garbage collector)' : name === '(program)' ? '(program)' : packageOf(node.callFrame.url);
    perPackage.set(pkg, (perPackage.get(pkg) ?? 0) + dt);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const k = key(byId.get(id)!);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + dt);
    }
  }
  const busy = total - idle;
  const pct = (x: number) => `${((x / busy) * 100).toFixed(1).padStart(5)} %`;
  const table = (title: string, map: Map<string, number>, n: number) => {
    console.log(`\n${title}`);
    for (const [k, v] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(`  ${pct(v)}  ${v.toFixed(0).padStart(7)} ms  ${k}`);
  };
  console.log(`\n# ${file}: ${(total / 1000).toFixed(1)} s sampled, ${(busy / 1000).toFixed(1)} s busy (percentages are of busy time)`);
  table('self time by package / folder (node:<module> for Node.js internals)', perPackage, 40);
  table(`self time by function (top ${top})`, self, top);
  const notRoot = new Map([...inclusive].filter(([k]) => !k.startsWith('(root)')));
  table(`inclusive time by function (top ${top})`, notRoot, top);
}
