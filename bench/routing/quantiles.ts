/** Quantiles of the routing benchmark's time-to-first-chunk figures. */

/** p50, p95 and p99 of a set of times, in ms. */
export interface Tail {
  p50: number;
  p95: number;
  p99: number;
}

/**
 * The nearest-rank quantile `q` (0 < q <= 1) of `values`: the smallest value with at least
 * q x n values at or below it. `Infinity` stands for a failed call (slower than any answer).
 * NaN when `values` is empty.
 */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((x, y) => x - y);
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[rank - 1]!;
}

/** p50, p95 and p99 of `values` (see {@link quantile}). */
export function tailOf(values: readonly number[]): Tail {
  return { p50: quantile(values, 0.5), p95: quantile(values, 0.95), p99: quantile(values, 0.99) };
}
