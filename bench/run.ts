/**
 * `npm run bench [-- name ...]`: runs every benchmark suite of bench/suites/ (or the named
 * ones), prints its report and writes bench/results/<name>.json with the machine, the Node.js
 * version, the date and every figure. A benchmark measures; it does not pass or fail on its
 * figures. It stops with a non-zero exit only when a suite's setup is wrong (for example the
 * engine's answers are not VALID), since its figures would then mean nothing.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { machineInfo } from './lib/machine';
import { rounded } from './lib/stats';
import type { Suite } from './lib/suite';

const here = fileURLToPath(new URL('.', import.meta.url));
const suitesDir = join(here, 'suites');
const resultsDir = join(here, 'results');

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const files = (await readdir(suitesDir)).filter((f) => /\.(ts|mts|js|mjs)$/.test(f)).sort();
const suites: Suite[] = [];
for (const file of files) {
  const mod = (await import(pathToFileURL(join(suitesDir, file)).href)) as { default?: Suite };
  if (!mod.default?.run) throw new Error(`bench/suites/${file} does not export a default Suite`);
  if (wanted.length === 0 || wanted.includes(mod.default.name)) suites.push(mod.default);
}
if (suites.length === 0) {
  console.error(`No suite matches ${wanted.join(', ')}; suites: ${files.join(', ')}`);
  process.exit(2);
}

await mkdir(resultsDir, { recursive: true });
let failed = false;
for (const suite of suites) {
  const machine = machineInfo();
  const startedAt = new Date();
  const t0 = performance.now();
  const log = (line: string) => console.error(`[${suite.name} ${((performance.now() - t0) / 1000).toFixed(1).padStart(5)} s] ${line}`);
  console.log(`\n=== ${suite.name}: ${suite.description}`);
  console.log(`    ${machine.cpuModel} x ${machine.cpuCount}, Node.js ${machine.nodeVersion}, load average ${machine.loadAverage1m.toFixed(2)}, ${startedAt.toISOString()}`);
  try {
    const result = await suite.run(log);
    const durationS = (performance.now() - t0) / 1000;
    const file = join(resultsDir, `${suite.name}.json`);
    const output = {
      suite: suite.name,
      description: suite.description,
      date: startedAt.toISOString(),
      durationS,
      machine: { ...machine, loadAverage1mAtEnd: machineInfo().loadAverage1m },
      ...result.figures,
    };
    await writeFile(file, JSON.stringify(rounded(output, 4), null, 2) + '\n');
    console.log('');
    for (const line of result.report) console.log(line);
    console.log(`\n${suite.name}: ${durationS.toFixed(1)} s, results in ${file}`);
  } catch (err) {
    failed = true;
    console.error(`\n${suite.name} FAILED: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  }
}
process.exit(failed ? 1 : 0);
