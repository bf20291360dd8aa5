/** What a file of bench/suites/ exports as `default`. */
export interface Suite {
  /** Also the name of its result file: bench/results/<name>.json. */
  name: string;
  description: string;
  run(log: (line: string) => void): Promise<SuiteResult>;
}

export interface SuiteResult {
  /** Every figure of the run (numbers in ms unless the key says otherwise); written to the JSON file. */
  figures: Record<string, unknown>;
  /** The lines printed as the suite's report. */
  report: string[];
}

/** A correctness check of a benchmark's setup: when it fails, the run stops with this message. */
export class BenchSetupError extends Error {
  override name = 'BenchSetupError';
}

export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new BenchSetupError(message);
}
