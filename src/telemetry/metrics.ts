import type { Attributes } from '@opentelemetry/api';
import { argTypeError } from '../internal/arg-checks.js';
import type { RouterEventName, RouterListener } from '../routing/events.js';
import { VERSION } from '../version.js';
import { GEN_AI_OPERATION } from './gen-ai.js';

/** What {@link instrumentRouter} needs of a router: its event subscription. */
export interface RouterEventSource {
  /** Subscribes `listener` to `event`, as `router.on()` does; returns the function that unsubscribes it. */
  on<E extends RouterEventName>(event: E, listener: RouterListener<E>): () => void;
}

/** Names of the instruments {@link instrumentRouter} records, on the meter `voxroute` (frozen). */
export const METRIC_NAMES = Object.freeze({
  /** Histogram, ms: time from an attempt's start to its first chunk (TTFC). */
  timeToFirstChunk: 'voxroute.time_to_first_chunk',
  /** Counter: attempts that failed before their first chunk and handed the call on. */
  fallbacks: 'voxroute.fallbacks',
  /** Counter: hedged attempts started. */
  hedges: 'voxroute.hedges',
  /** Counter: circuit breakers that went to open. */
  breakerOpenings: 'voxroute.breaker.openings',
} as const);

/** Upper bounds (ms) of the TTFC histogram's buckets: voice latencies, 10 ms to 10 s (frozen). */
export const TTFC_BUCKETS_MS: readonly number[] = Object.freeze([
  10, 25, 50, 75, 100, 150, 200, 300, 400, 500, 750, 1000, 1500, 2500, 5000, 10000,
]);

/**
 * Records a router's metrics through the OpenTelemetry metrics API (the optional peer
 * dependency `@opentelemetry/api` >= 1.3), on the meter `voxroute` of the globally registered
 * meter provider, by listening to the router's events:
 *
 * - `voxroute.time_to_first_chunk` (histogram, unit `ms`, buckets {@link TTFC_BUCKETS_MS}): one
 *   value per attempt that produced a first chunk;
 * - `voxroute.fallbacks` (counter): one per `fallback` event, attributed to the provider that
 *   failed, with `voxroute.next` (the provider tried next), `voxroute.partial_output` (true when
 *   it failed after its first chunk and the stream continues on `next`) and `error.type` (the
 *   error's class);
 * - `voxroute.hedges` (counter): one per hedged attempt, attributed to the provider hedged onto;
 * - `voxroute.breaker.openings` (counter): one per breaker that went to open, with
 *   `voxroute.breaker.reason`.
 *
 * Every instrument carries `voxroute.provider` (the provider's name in the config),
 * `voxroute.capability` and `gen_ai.operation.name` (`chat`, `text_to_speech`,
 * `speech_to_text`); the first three also `voxroute.route`. No secret, URL or payload.
 *
 * Call it once per router, after `createRouter`; events before the returned promise settles are
 * not recorded. When `@opentelemetry/api` is not installed it records nothing.
 *
 * @param router The router (anything with its `on(event, listener)`).
 * @returns A function that stops recording (removes the listeners).
 * @throws TypeError (the promise rejects) when `router` has no `on` function, whether or not
 *   `@opentelemetry/api` is installed.
 */
export async function instrumentRouter(router: RouterEventSource): Promise<() => void> {
  if (
    (typeof router !== 'object' && typeof router !== 'function') ||
    router === null ||
    typeof router.on !== 'function'
  )
    throw argTypeError(
      'instrumentRouter(router): router',
      'a router from createRouter() (anything with on(event, listener))',
      router,
    );
  let api: typeof import('@opentelemetry/api');
  try {
    api = await import('@opentelemetry/api');
  } catch {
    return () => {};
  }
  const meter = api.metrics.getMeter('voxroute', VERSION);
  const ttfc = meter.createHistogram(METRIC_NAMES.timeToFirstChunk, {
    description: "Time from an attempt's start to its first chunk",
    unit: 'ms',
    advice: { explicitBucketBoundaries: [...TTFC_BUCKETS_MS] },
  });
  const fallbacks = meter.createCounter(METRIC_NAMES.fallbacks, {
    description: 'Attempts that failed before their first chunk and handed the call to another provider',
    unit: '{fallback}',
  });
  const hedges = meter.createCounter(METRIC_NAMES.hedges, {
    description: 'Hedged attempts started beside a slow first attempt',
    unit: '{hedge}',
  });
  const openings = meter.createCounter(METRIC_NAMES.breakerOpenings, {
    description: 'Circuit breakers that went to open',
    unit: '{opening}',
  });
  const base = (e: { provider: string; capability: keyof typeof GEN_AI_OPERATION }): Attributes => ({
    'voxroute.provider': e.provider,
    'voxroute.capability': e.capability,
    'gen_ai.operation.name': GEN_AI_OPERATION[e.capability],
  });
  const stops = [
    router.on('first-chunk', (e) =>
      ttfc.record(e.timeToFirstChunkMs, { ...base(e), 'voxroute.route': e.route }),
    ),
    router.on('fallback', (e) =>
      fallbacks.add(1, {
        ...base(e),
        'voxroute.route': e.route,
        'voxroute.next': e.next,
        'voxroute.partial_output': e.partialOutput,
        'error.type': errorType(e.error),
      }),
    ),
    router.on('hedge', (e) => hedges.add(1, { ...base(e), 'voxroute.route': e.route })),
    router.on('breaker', (e) => {
      if (e.to === 'open') openings.add(1, { ...base(e), 'voxroute.breaker.reason': e.reason });
    }),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}

/** The class name of an error (`'ProviderError'`), never its message. */
function errorType(error: unknown): string {
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : 'Error';
}
