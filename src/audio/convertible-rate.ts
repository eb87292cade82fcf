import { MAX_RATE, MAX_RATIO, rateInRange, ratesWithinRatio } from './resampler.js';

/**
 * Why audio at `fromRate` cannot be converted to `toRate` (both in Hz), in words for an error
 * message that names the rate, or undefined when it can: a rate that is not an integer from 1 to
 * 192 000 Hz, or two rates more than 256 times apart (the resampler's own limits, the same
 * predicates as `checkResampleRates`). `toRate` is the caller's, already checked.
 */
export function unconvertibleRate(fromRate: number, toRate: number): string | undefined {
  if (!rateInRange(fromRate))
    return `a sample rate of ${fromRate} Hz, which voxroute cannot convert (rates go from 1 to ${MAX_RATE} Hz)`;
  if (!ratesWithinRatio(fromRate, toRate))
    return `a sample rate of ${fromRate} Hz, which voxroute cannot convert to ${toRate} Hz (more than ${MAX_RATIO} times apart)`;
  return undefined;
}
