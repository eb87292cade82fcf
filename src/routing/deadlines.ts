import type { LatencySnapshot } from './latency-tracker.js';

/** Floor of an `auto` first-chunk deadline, in ms. */
export const AUTO_FIRST_CHUNK_FLOOR_MS = 1_000;
/** Ceiling of an `auto` first-chunk deadline, in ms; also its value before enough samples exist. */
export const AUTO_FIRST_CHUNK_CEILING_MS = 10_000;
/** Samples needed before an `auto` deadline follows the measured tail. */
export const AUTO_MIN_SAMPLES = 5;

/**
 * The first-chunk deadline of one attempt, in ms (0: none).
 * A number is used as is; `false` means none; `'auto'` is 3 x the measured p99 of time to
 * first chunk, clamped to [1 000, 10 000] ms, and the ceiling until 5 samples exist.
 */
export function firstChunkDeadlineMs(
  setting: number | 'auto' | false,
  stats: Pick<LatencySnapshot, 'samples' | 'p99Ms'>,
): number {
  if (setting === false) return 0;
  if (typeof setting === 'number') return setting;
  if (stats.samples < AUTO_MIN_SAMPLES || stats.p99Ms === undefined) return AUTO_FIRST_CHUNK_CEILING_MS;
  return Math.min(AUTO_FIRST_CHUNK_CEILING_MS, Math.max(AUTO_FIRST_CHUNK_FLOOR_MS, 3 * stats.p99Ms));
}
