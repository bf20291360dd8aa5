// Writes the committed dataset in functions/core/sample-data/dataset/ (movies.json, actors.json,
// users.json) from the generator of functions/core/sample-data/generate.ts. Fully synthetic; no
// third-party data is used. Run with `npm run sample-data`.
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateSampleData, type SampleData } from '../functions/core/sample-data/generate';

export { generateSampleData, SAMPLE_SEED, SAMPLE_SIZES, type SampleData } from '../functions/core/sample-data/generate';

// ---------------------------------------------------------------------------------------------
// Files.

/** One record per line inside a JSON array, so that changes diff line by line. */
export function serialiseRecords(records: readonly unknown[]): string {
  return `[\n${records.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`;
}

/** Where the committed dataset lives. */
export const DATASET_DIR = fileURLToPath(new URL('../functions/core/sample-data/dataset/', import.meta.url));

/** The file name and content of each dataset file. */
export function datasetFiles(data: SampleData): Record<'movies.json' | 'actors.json' | 'users.json', string> {
  return {
    'movies.json': serialiseRecords(data.movies),
    'actors.json': serialiseRecords(data.actors),
    'users.json': serialiseRecords(data.users),
  };
}

function main(): void {
  mkdirSync(DATASET_DIR, { recursive: true });
  for (const [name, content] of Object.entries(datasetFiles(generateSampleData()))) {
    writeFileSync(DATASET_DIR + name, content);
    console.log(`${name}: ${Buffer.byteLength(content)} bytes`);
  }
}

/** True when this file is the program being run (not imported, e.g. by the dataset tests). */
function isMain(): boolean {
  const invokedAs = process.argv[1];
  if (!invokedAs) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(invokedAs)).href;
  } catch {
    return false;
  }
}

if (isMain()) main();
