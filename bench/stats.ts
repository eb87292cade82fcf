/** Small statistics helpers of the benchmarks. */

/** Median and tail of a sample, in the sample's unit. */
export interface Summary {
  n: number;
  median: number;
  p90: number;
  p99: number;
  min: number;
  max: number;
}

/**
 * The `p` quantile (0..1) of an ascending-sorted array, by the nearest-rank method:
 * the smallest value with at least `p` of the sample at or below it. NaN for an empty array.
 */
export function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length)));
  return sorted[rank - 1] as number;
}

/** {@link Summary} of `values` (not modified). */
export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
    p99: quantile(sorted, 0.99),
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

/** `value` with `digits` decimals, right-aligned to `width` characters. */
export function fmt(value: number, digits = 3, width = 9): string {
  return value.toFixed(digits).padStart(width);
}
