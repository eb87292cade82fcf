/**
 * Idle time after which a provider's next call is taken as a cold start (SageMaker scale-up,
 * an EC2 model reloading, cold TLS): its TTFC is averaged in without the peak jump, once.
 */
export const COLD_START_AFTER_MS = 5 * 60_000;

/** `'first'`: the provider's first call ever; `'idle'`: the first after a long idle; false: warm. */
export function isColdStart(lastTriedAt: number | undefined, now: number): false | 'first' | 'idle' {
  if (lastTriedAt === undefined) return 'first';
  return now - lastTriedAt > COLD_START_AFTER_MS ? 'idle' : false;
}
