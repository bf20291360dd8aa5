/**
 * Throughput of the transformer sandbox: 100,000 small records through two simple transformers.
 *   npx tsx functions/core/jobs/import/sandbox/bench.ts [records] [batchSize]
 */
import { TransformerSandbox } from './transformer-sandbox';

const count = Number(process.argv[2] ?? 100_000);
const batchSize = Number(process.argv[3] ?? 500);
const records = Array.from({ length: count }, (_, i) => ({
  id: `m${i}`,
  title: `Movie number ${i}`,
  year: String(1950 + (i % 70)),
  genres: 'Drama|Comedy',
  rating: (i % 50) / 10,
}));

const sandbox = new TransformerSandbox({ batchSize });
try {
  let started = performance.now();
  const prepared = await sandbox.prepare(["_.set(data, 'x', 1)", "_.pick(data, ['id', 'x'])"]);
  const startupMs = performance.now() - started;
  // The import job hands the sandbox one chunk of records at a time.
  started = performance.now();
  let ok = 0;
  for (let i = 0; i < records.length; i += 5000) {
    for (const outcome of await prepared.run(records.slice(i, i + 5000))) if (outcome.ok) ok++;
  }
  const ms = performance.now() - started;
  console.log(
    JSON.stringify({ records: count, ok, batchSize, startupMs: Math.round(startupMs), runMs: Math.round(ms), recordsPerSecond: Math.round((count / ms) * 1000) }),
  );
} finally {
  await sandbox.close();
}
