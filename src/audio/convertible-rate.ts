import { MAX_RATE, MAX_RATIO } from './resampler.js';

/**
 * Why audio at `fromRate` cannot be converted to `toRate` (both in Hz), in words for an error
 * message that names the rate, or undefined when it can: a rate that is not an integer from 1 to
 * 192 000 Hz, or two rates more than 256 times apart (the resampler's limits; see
 * `checkResampleRates`). `toRate` is the caller's, already checked.
 */
export function unconvertibleRate(fromRate: number, toRate: number): string | undefined {
  if (!Number.isInteger(fromRate) || fromRate < 1 || fromRate > MAX_RATE)
    return `a sample rate of ${fromRate} Hz, which voxroute cannot convert (rates go from 1 to ${MAX_RATE} Hz)`;
  if (fromRate > toRate * MAX_RATIO || toRate > fromRate * MAX_RATIO)
    return `a sample rate of ${fromRate} Hz, which voxroute cannot convert to ${toRate} Hz (more than ${MAX_RATIO} times apart)`;
  return undefined;
}
