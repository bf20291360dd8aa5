/**
 * Lambda cold start, per function of the stack (lib/function-wiring.ts):
 *  1. the bundle as `cdk synth` builds it (the same esbuild options, lib/constructs/bundling.ts):
 *     its size, minified ESM, against a 500 KB target (the import worker excepted: it carries
 *     the sandbox), and which packages the bytes come from (esbuild metafile);
 *  2. its module initialisation: the time to `import()` the bundle in a fresh Node process,
 *     median of several runs, with and without `--enable-source-maps` (the functions run with
 *     it: NODE_OPTIONS in BaseFunction).
 * Plus a what-if: the same bundles with `import * as z from 'zod'` instead of
 * `import { z } from 'zod'` (an esbuild plugin rewrites the import in memory; no file changes).
 */
import { build, type Metafile, type Plugin } from 'esbuild';
import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUNDLE_FILE, esbuildOptions } from '../../lib/constructs/bundling';
import { handlerEntry } from '../../lib/constructs/function-factory';
import { FUNCTIONS, type FunctionName } from '../../lib/function-wiring';
import { ROOT, bundleFunction } from '../../test/lambda/support/bundle';
import { summarize, type Summary } from '../lib/stats';
import { check, type Suite } from '../lib/suite';

const QUICK = process.env.BENCH_QUICK === '1';
const P = {
  /** Fresh processes per function and mode; the median is reported. */
  runs: QUICK ? 3 : 9,
  targetBundleKiB: 500,
  /** Functions allowed over the target (they carry the transformer sandbox). */
  targetExempt: ['import-worker'] as FunctionName[],
};

/**
 * Inside the repository (node_modules/.cache), so the bundles' externals resolve as in Lambda:
 * `@aws-sdk/*` (the runtime provides it) and the import worker's shipped packages.
 */
const OUT = join(ROOT, 'node_modules', '.cache', 'bench-lambda');

/** Package (or `functions/<folder>`) of an input file of the metafile. */
function origin(file: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (pkg) return pkg[1]!;
  const parts = file.split('/');
  return parts[0] === 'functions' ? parts.slice(0, parts[1] === 'core' || parts[1] === 'adapters' ? 3 : 2).join('/') : file;
}

/** Output bytes by origin, largest first. */
function composition(metafile: Metafile): { origin: string; kib: number }[] {
  const output = Object.entries(metafile.outputs).find(([path]) => path.endsWith(BUNDLE_FILE))![1];
  const bytes = new Map<string, number>();
  for (const [file, input] of Object.entries(output.inputs)) bytes.set(origin(file), (bytes.get(origin(file)) ?? 0) + input.bytesInOutput);
  return [...bytes]
    .sort((a, b) => b[1] - a[1])
    .map(([name, b]) => ({ origin: name, kib: b / 1024 }));
}

/** External imports left in the bundle (loaded at init from the runtime or node_modules). */
function externalImports(metafile: Metafile): string[] {
  const output = Object.entries(metafile.outputs).find(([path]) => path.endsWith(BUNDLE_FILE))![1];
  return [...new Set(output.imports.filter((i) => i.external && !i.path.startsWith('node:')).map((i) => i.path))].sort();
}

/** Time (ms) to import modules (a bundle's URL, or package names) in a fresh Node process. */
function importOnce(specifiers: string[], nodeArgs: string[]): Promise<number> {
  const imports = specifiers.map((s) => `await import(${JSON.stringify(s)});`).join(' ');
  const script = `const t0 = performance.now(); ${imports} process.stdout.write(String(performance.now() - t0));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, '--input-type=module', '-e', script], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', AWS_REGION: 'eu-west-1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (err += String(d)));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(Number(out)) : reject(new Error(`import of ${specifiers.join(', ')} exited ${code}: ${err}`))));
  });
}

async function importTimes(specifiers: string[], nodeArgs: string[]): Promise<Summary> {
  const samples: number[] = [];
  for (let i = 0; i < P.runs; i++) samples.push(await importOnce(specifiers, nodeArgs));
  return summarize(samples);
}

/** Import time of the AWS SDK packages a bundle loads at init, alone (memoised per set). */
const sdkTimes = new Map<string, Promise<Summary>>();
function sdkOnly(packages: string[]): Promise<Summary> | undefined {
  if (packages.length === 0) return undefined;
  const key = packages.join(' ');
  if (!sdkTimes.has(key)) sdkTimes.set(key, importTimes(packages, []));
  return sdkTimes.get(key);
}

/** What-if: `import { z } from 'zod'` read as `import * as z from 'zod'` (namespace import, tree-shakeable). */
const zodNamespaceImport: Plugin = {
  name: 'zod-namespace-import',
  setup(b) {
    b.onLoad({ filter: /functions\/.*\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      return { contents: source.replace(/import \{ z \} from 'zod';/g, "import * as z from 'zod';"), loader: 'ts' };
    });
  },
};

async function bundleWhatIf(name: FunctionName, dir: string): Promise<number> {
  const file = join(dir, BUNDLE_FILE);
  await build({ ...esbuildOptions(handlerEntry(name), file, FUNCTIONS[name].nodeModules), plugins: [zodNamespaceImport] });
  return (await stat(file)).size;
}

/** Bytes of the packages shipped beside the bundle (and their dependencies). */
async function shippedBytes(name: FunctionName): Promise<number> {
  let total = 0;
  const seen = new Set<string>();
  const visit = async (pkg: string): Promise<void> => {
    if (seen.has(pkg)) return;
    seen.add(pkg);
    const dir = join(ROOT, 'node_modules', pkg);
    total += await directoryBytes(dir);
    const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const dependency of Object.keys(manifest.dependencies ?? {})) await visit(dependency);
  };
  for (const pkg of FUNCTIONS[name].nodeModules ?? []) await visit(pkg);
  return total;
}

async function directoryBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? await directoryBytes(path) : (await stat(path)).size;
  }
  return total;
}

const kib = (bytes: number) => bytes / 1024;

const suite: Suite = {
  name: 'lambda',
  description: 'Lambda cold start: bundle size (as cdk synth builds it) and module initialisation (import in a fresh Node process) per function',
  async run(log) {
    await rm(OUT, { recursive: true, force: true });
    const names = Object.keys(FUNCTIONS) as FunctionName[];
    const functions: Record<string, unknown> = {};
    const rows: string[] = [];
    for (const name of names) {
      const dir = join(OUT, name);
      await mkdir(dir, { recursive: true });
      const bundle = await bundleFunction(name, dir);
      const map = (await stat(`${bundle.file}.map`)).size;
      const url = pathToFileURL(bundle.file).href;
      const withSourceMaps = await importTimes([url], ['--enable-source-maps']);
      const plain = await importTimes([url], []);
      const sdk = await sdkOnly(externalImports(bundle.metafile).filter((i) => i.startsWith('@aws-sdk/')));
      const whatIfDir = join(OUT, `${name}.zod-namespace`);
      await mkdir(whatIfDir, { recursive: true });
      const whatIfBytes = await bundleWhatIf(name, whatIfDir);
      const shipped = await shippedBytes(name);
      const parts = composition(bundle.metafile);
      check(withSourceMaps.n === P.runs && Number.isFinite(withSourceMaps.p50), `${name}: no import time measured`);
      const exempt = P.targetExempt.includes(name);
      functions[name] = {
        bundleKiB: kib(bundle.bytes),
        sourceMapKiB: kib(map),
        shippedNodeModulesKiB: kib(shipped),
        underTarget: kib(bundle.bytes) <= P.targetBundleKiB,
        targetExempt: exempt,
        initMs: { withSourceMaps, withoutSourceMaps: plain, ...(sdk ? { awsSdkPackagesAlone: sdk } : {}) },
        initMedianMs: withSourceMaps.p50,
        sdkShareOfInitMedianMs: sdk?.p50 ?? 0,
        externalImportsAtInit: externalImports(bundle.metafile),
        largestOrigins: parts.slice(0, 8),
        whatIf: { zodNamespaceImportBundleKiB: kib(whatIfBytes) },
      };
      log(`${name}: ${kib(bundle.bytes).toFixed(0)} KiB, init ${withSourceMaps.p50.toFixed(0)} ms (source maps) / ${plain.p50.toFixed(0)} ms`);
      rows.push(
        `${name.padEnd(19)} ${kib(bundle.bytes).toFixed(0).padStart(6)} KiB${exempt ? '*' : ' '} ${kib(whatIfBytes).toFixed(0).padStart(6)} KiB ${withSourceMaps.p50.toFixed(0).padStart(7)} ms ${plain.p50.toFixed(0).padStart(7)} ms ${(sdk?.p50 ?? 0).toFixed(0).padStart(5)} ms   ${parts
          .slice(0, 4)
          .map((p) => `${p.origin} ${p.kib.toFixed(0)}`)
          .join(', ')}`,
      );
    }
    const sizes = names.map((n) => (functions[n] as { bundleKiB: number }).bundleKiB);
    const over = names.filter((n, i) => sizes[i]! > P.targetBundleKiB && !P.targetExempt.includes(n));
    await rm(OUT, { recursive: true, force: true });
    return {
      figures: {
        parameters: { ...P, quick: QUICK, nodeVersion: process.version, note: 'Local Node.js; Lambda runs Node.js 22 on arm64 and loads @aws-sdk from its runtime' },
        functions,
        targets: { bundleKiB: P.targetBundleKiB, met: over.length === 0, over },
      },
      report: [
        `Bundles as cdk synth builds them; init = import() in a fresh Node ${process.version} process, median of ${P.runs}.`,
        `function             bundle   zod ns    init+maps  init     SDK     largest parts (KiB)`,
        ...rows,
        `* import-worker is exempt from the ${P.targetBundleKiB} KiB target (it ships the sandbox packages beside the bundle).`,
        `zod ns: the same bundle if the sources imported zod as a namespace (import * as z from 'zod').`,
        `SDK: importing alone the @aws-sdk packages the bundle loads at init (part of init; Lambda loads them from its runtime).`,
        over.length === 0 ? `All bundles under ${P.targetBundleKiB} KiB.` : `Over ${P.targetBundleKiB} KiB: ${over.join(', ')}.`,
      ],
    };
  },
};

export default suite;
