/**
 * Small, dependency-free statistics for benchmark samples. Percentiles use linear
 * interpolation between closest ranks (the "R-7" / numpy default), so p99 of 250 samples
 * sits between the 3rd and 2nd largest values rather than jumping to the maximum.
 */
import { mulberry32 } from '../../functions/core/sample-data/generate';

export interface Summary {
  n: number;
  min: number;
  p25: number;
  p50: number;
  p75: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
  stdev: number;
  /** Interquartile range p75 - p25: the spread of the middle half. */
  iqr: number;
  /** Median absolute deviation from the median (robust spread). */
  mad: number;
  /** iqr / p50, as a fraction: how wide the distribution is relative to its centre. */
  relativeIqr: number;
}

/** Sorted copy (ascending) as a Float64Array. */
export function sorted(values: ArrayLike<number>): Float64Array {
  return Float64Array.from(values).sort();
}

/** The q-quantile (0..1) of an ascending array, linear interpolation between closest ranks. */
export function quantileSorted(asc: ArrayLike<number>, q: number): number {
  const n = asc.length;
  if (n === 0) return NaN;
  if (n === 1) return asc[0];
  const pos = (n - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(pos);
  const hi = Math.min(n - 1, lo + 1);
  return asc[lo] + (asc[hi] - asc[lo]) * (pos - lo);
}

export function quantile(values: ArrayLike<number>, q: number): number {
  return quantileSorted(sorted(values), q);
}

export function median(values: ArrayLike<number>): number {
  return quantile(values, 0.5);
}

export function summarize(values: ArrayLike<number>): Summary {
  const asc = sorted(values);
  const n = asc.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += asc[i];
  const mean = n > 0 ? sum / n : NaN;
  let sq = 0;
  for (let i = 0; i < n; i++) sq += (asc[i] - mean) ** 2;
  const p50 = quantileSorted(asc, 0.5);
  const p25 = quantileSorted(asc, 0.25);
  const p75 = quantileSorted(asc, 0.75);
  const deviations = new Float64Array(n);
  for (let i = 0; i < n; i++) deviations[i] = Math.abs(asc[i] - p50);
  return {
    n,
    min: n > 0 ? asc[0] : NaN,
    p25,
    p50,
    p75,
    p90: quantileSorted(asc, 0.9),
    p99: quantileSorted(asc, 0.99),
    max: n > 0 ? asc[n - 1] : NaN,
    mean,
    stdev: n > 1 ? Math.sqrt(sq / (n - 1)) : 0,
    iqr: p75 - p25,
    mad: quantileSorted(deviations.sort(), 0.5),
    relativeIqr: p50 !== 0 ? (p75 - p25) / p50 : NaN,
  };
}

/** A small deterministic PRNG (mulberry32, shared with the sample data generator), so bootstrap intervals are reproducible for given samples. */
export const rng = mulberry32;

export interface Interval {
  /** The statistic on the original samples. */
  estimate: number;
  /** 95 % percentile-bootstrap interval. */
  low: number;
  high: number;
}

/**
 * Percentile bootstrap of a statistic over paired samples: each resample draws the same
 * indices from `a` and `b` (pairs measured back to back stay together, so slow moments of a
 * noisy machine hit both sides of a pair).
 */
export function pairedBootstrap(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  statistic: (a: Float64Array, b: Float64Array) => number,
  options: { resamples?: number; seed?: number } = {},
): Interval {
  const n = Math.min(a.length, b.length);
  const resamples = options.resamples ?? 2000;
  const random = rng(options.seed ?? 12345);
  const ra = new Float64Array(n);
  const rb = new Float64Array(n);
  const stats = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) {
      const j = Math.floor(random() * n);
      ra[i] = a[j];
      rb[i] = b[j];
    }
    stats[r] = statistic(ra, rb);
  }
  stats.sort();
  return {
    estimate: statistic(Float64Array.from({ length: n }, (_, i) => a[i]), Float64Array.from({ length: n }, (_, i) => b[i])),
    low: quantileSorted(stats, 0.025),
    high: quantileSorted(stats, 0.975),
  };
}

/** Rounds every number of a JSON-like value to `digits` decimals (for readable result files). */
export function rounded<T>(value: T, digits = 3): T {
  const f = 10 ** digits;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'number') return Number.isFinite(v) ? Math.round(v * f) / f : v;
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}
