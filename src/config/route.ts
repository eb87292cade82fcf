import { msSchema } from '../config-fields/fields.js';
import { lazySchema, zod } from '../internal/zod.js';
import { CAPABILITIES } from './capability.js';

/** How a route chooses among its providers (see docs/routing.md). */
export type RouteStrategy = 'latency' | 'priority' | 'weighted' | 'cost';

/**
 * Hedging of a route: when the chosen provider has no first chunk after `after`, the next choice
 * starts too; the first to yield a chunk wins and the other is aborted. `after`: `'auto'`
 * (recommended: per call, the delay that minimises expected time to first audio from the
 * provider's learned distribution while hedging at most `maxShare` of calls; docs/routing.md),
 * the measured p95 or p99 TTFC, or a fixed number of ms. `maxShare` caps hedges at that share
 * of calls: a ledger of tokens that starts with max(2, 50 x maxShare), earns nothing over the
 * first start / maxShare calls (50 at 0.1), then `maxShare` of a token per call, and saves up
 * to 100 (fallbacks take a token too); docs/routing.md, "Hedged requests".
 */
export interface HedgeSetting {
  after: 'auto' | 'p95' | 'p99' | number;
  maxShare: number;
}

/**
 * What a route does when a provider fails after its first chunk: `'error'` ends the stream with
 * MidStreamError; `'resume'` (tts) continues on the next provider from the first sentence not
 * fully delivered; `'replay'` (stt) replays the audio since the last final transcript to the
 * next provider; `'continue'` (chat) sends the partial reply to the next provider to continue.
 */
export type MidStreamPolicy = 'error' | 'resume' | 'replay' | 'continue';

/** The mid-stream policy each capability allows besides `'error'`, and its default. */
export const MID_STREAM_OF = { tts: 'resume', stt: 'replay', chat: 'continue' } as const;

/**
 * Default mid-stream policy: `'error'` for every capability, so by default the caller never
 * hears or reads a repeated prefix; resume, replay and continue are opt-in.
 */
export const MID_STREAM_DEFAULT = { tts: 'error', stt: 'error', chat: 'error' } as const;

/** Per-attempt first-chunk deadline: ms, `'auto'` (from the measured tail), or `false` (none). */
export type FirstChunkTimeout = number | 'auto' | false;

/**
 * The route settings that have defaults, with the value voxroute uses when neither the route
 * nor the config's `defaults.routes` sets one. `totalTimeoutMs` has none: unset means no
 * overall deadline.
 */
export const ROUTE_DEFAULTS = {
  strategy: 'latency',
  firstChunkTimeoutMs: 'auto',
  idleTimeoutMs: 5_000,
  connectTimeoutMs: 2_000,
  ewmaDecayMs: 10_000,
} as const satisfies {
  strategy: RouteStrategy;
  firstChunkTimeoutMs: FirstChunkTimeout;
  idleTimeoutMs: number;
  connectTimeoutMs: number;
  ewmaDecayMs: number;
};

/** The settings a route may set, and `defaults.routes` may set for every route. */
const routeSettingsShape = () => {
  const z = zod();
  return {
    /**
     * "latency": the lowest latency score (confirmed peak-EWMA of time to first chunk, x (1 + inFlightWeight
     * x in-flight)) first, power of two choices among near-best providers, bounded probing of unmeasured
     * ones; "priority": the listed order; "weighted": a random draw by `weights`; "cost": the cheapest by
     * `costs` among providers within `costLatencyFactor` of the best score. Default "latency".
     */
    strategy: z
      .enum(['latency', 'priority', 'weighted', 'cost'])
      .optional()
      .describe(
        '"latency": the lowest latency score (confirmed peak-EWMA of time to first chunk, x (1 + inFlightWeight x in-flight)) first, power of two choices among near-best providers, bounded probing of unmeasured ones; "priority": the listed order; "weighted": a random draw by `weights`; "cost": the cheapest by `costs` among providers within `costLatencyFactor` of the best score. Default "latency".',
      )
      .meta({ default: ROUTE_DEFAULTS.strategy }),
    /**
     * Strategy "weighted": provider name -> relative weight (default 1 each). 0: drawn only after
     * the providers with a weight above 0; a weighted route whose every provider has 0 is a ConfigError.
     */
    weights: z
      .record(z.string(), z.number().nonnegative('must be >= 0'))
      .optional()
      .describe(
        'Strategy "weighted": provider name -> relative weight (default 1 each). 0: drawn only after the providers with a weight above 0; a weighted route whose every provider has 0 is invalid.',
      ),
    /** Strategy "cost": provider name -> cost per call in any unit, lower is cheaper (default 0). */
    costs: z
      .record(z.string(), z.number().nonnegative('must be >= 0'))
      .optional()
      .describe('Strategy "cost": provider name -> cost per call in any unit, lower is cheaper (default 0).'),
    /**
     * Strategy "cost": providers whose score is at most this many times the best one are fast enough. Default
     * 1.5.
     */
    costLatencyFactor: z
      .number()
      .min(1, 'must be >= 1')
      .optional()
      .describe(
        'Strategy "cost": providers whose score is at most this many times the best one are fast enough. Default 1.5.',
      ),
    /**
     * Strategy "latency": the score is multiplied by (1 + inFlightWeight x attempts running on the provider).
     * 0 ignores load (third-party APIs); 1 is the classic peak-EWMA x (in-flight + 1) for self-hosted servers
     * that slow down under load. Default 0.
     */
    inFlightWeight: z
      .number()
      .min(0, 'must be >= 0')
      .optional()
      .describe(
        'Strategy "latency": the score is multiplied by (1 + inFlightWeight x attempts running on the provider). 0 ignores load (third-party APIs); 1 is the classic peak-EWMA x (in-flight + 1) for self-hosted servers that slow down under load. Default 0.',
      ),
    /**
     * Strategy "latency": a provider not tried for this long is probed again (one call at a time). Default
     * 30000.
     */
    probeAfterMs: msSchema(
      'Strategy "latency": a provider not tried for this long is probed again (one call at a time). Default 30000.',
    ).optional(),
    /**
     * Hedged requests: start the next choice when the first has no chunk after the hedge delay
     * ({ after: "auto" } recommended); the first chunk wins, the other is aborted. Default: off.
     */
    hedge: z
      .union(
        [
          z.literal(false),
          z.strictObject({
            /**
             * When to start the second choice: "auto" (recommended: per call, from the first choice's learned
             * distribution and the budget), its measured p95 or p99 TTFC, or fixed ms.
             */
            after: z
              .union(
                [z.literal('auto'), z.literal('p95'), z.literal('p99'), msSchema('Fixed hedge delay in ms.')],
                { error: 'expected "auto", "p95", "p99" or a number of ms' },
              )
              .describe(
                'When to start the second choice: "auto" (recommended: per call, from the first choice\'s learned distribution and the budget), its measured p95 or p99 TTFC, or fixed ms.',
              ),
            /** Largest share of calls that may be hedged (a token budget). Default 0.1. */
            maxShare: z
              .number()
              .min(0)
              .max(1)
              .optional()
              .describe('Largest share of calls that may be hedged (a token budget). Default 0.1.'),
          }),
        ],
        { error: 'expected false or { after, maxShare? }' },
      )
      .optional()
      .describe(
        'Hedged requests: start the next choice when the first has no chunk after the hedge delay ({ after: "auto" } recommended); the first chunk wins, the other is aborted. Default: off.',
      ),
    /**
     * Deadline per attempt for its first chunk, in ms; "auto" derives it from the provider's measured tail
     * (with a floor and a ceiling); false: none. Default "auto".
     */
    firstChunkTimeoutMs: z
      .union([msSchema('Fixed deadline in ms.'), z.literal('auto'), z.literal(false)], {
        error: 'expected a number of ms, "auto" or false',
      })
      .optional()
      .describe(
        'Deadline per attempt for its first chunk, in ms; "auto" derives it from the provider\'s measured tail (with a floor and a ceiling); false: none. Default "auto".',
      )
      .meta({ default: ROUTE_DEFAULTS.firstChunkTimeoutMs }),
    /**
     * Longest gap between two chunks of a stream, in ms, before the attempt fails with a TimeoutError (phase
     * idle), counted from the first byte of the answer (the wait for it is governed by firstChunkTimeoutMs).
     * Default 5000.
     */
    idleTimeoutMs: msSchema(
      'Longest gap between two chunks of a stream, in ms, before the attempt fails with a TimeoutError (phase idle), counted from the first byte of the answer (the wait for it is governed by firstChunkTimeoutMs). Default 5000.',
    )
      .optional()
      .meta({ default: ROUTE_DEFAULTS.idleTimeoutMs }),
    /** Deadline for a whole call, all attempts included, in ms (TimeoutError phase total). Default: none. */
    totalTimeoutMs: msSchema(
      'Deadline for a whole call, all attempts included, in ms (TimeoutError phase total). Default: none.',
    ).optional(),
    /**
     * Deadline to open a connection (TCP + TLS) to a provider, in ms (TimeoutError phase connect). Default
     * 2000.
     */
    connectTimeoutMs: msSchema(
      'Deadline to open a connection (TCP + TLS) to a provider, in ms (TimeoutError phase connect). Default 2000.',
    )
      .optional()
      .meta({ default: ROUTE_DEFAULTS.connectTimeoutMs }),
    /**
     * When a provider fails after its first chunk: "error" ends the stream with MidStreamError (partialOutput
     * true); "resume" (tts) continues on the next provider from the first sentence not fully delivered, the
     * first chunk after the switch marked discontinuity; "replay" (stt) replays the audio since the last
     * final transcript to the next provider; "continue" (chat) sends the partial reply to the next provider
     * as the start of its answer. Default "error" (no repeated prefix unless asked for).
     */
    midStream: z
      .enum(['error', 'resume', 'replay', 'continue'])
      .optional()
      .describe(
        'When a provider fails after its first chunk: "error" ends the stream with MidStreamError (partialOutput true); "resume" (tts) continues on the next provider from the first sentence not fully delivered, the first chunk after the switch marked discontinuity; "replay" (stt) replays the audio since the last final transcript to the next provider; "continue" (chat) sends the partial reply to the next provider as the start of its answer. Default "error" (no repeated prefix unless asked for).',
      ),
    /**
     * Decay time in ms of the EWMA in the latency score: how fast old samples stop counting. Default: the
     * router's.
     */
    ewmaDecayMs: msSchema(
      "Decay time in ms of the EWMA in the latency score: how fast old samples stop counting. Default: the router's.",
    ).optional(),
  };
};

/** Schema of one route (built on first call): which providers serve it, how one is chosen, its deadlines. */
export const routeSchema = lazySchema((z) =>
  z
    .strictObject({
      /**
       * The route's own key, as a resolved config carries it (so that a spread copy of one can be passed
       * back); when given it must equal the key. Leave it out otherwise.
       */
      name: z
        .string()
        .optional()
        .describe(
          "The route's own key, as a resolved config carries it (so that a spread copy of one can be passed back); when given it must equal the key. Leave it out otherwise.",
        ),
      /**
       * What the route serves. Implicit for routes named "tts", "stt" and "chat"; required for any other name
       * (e.g. "tts-premium").
       */
      capability: z
        .enum(CAPABILITIES)
        .optional()
        .describe(
          'What the route serves. Implicit for routes named "tts", "stt" and "chat"; required for any other name (e.g. "tts-premium").',
        ),
      /** Names of providers (keys of `providers`) this route may use; each must have the capability. */
      providers: z
        .array(z.string().min(1, 'must not be empty'))
        .min(1, 'must name at least one provider')
        // checkConfigReferences's "names provider twice", for the JSON Schema.
        .meta({ uniqueItems: true })
        .describe(
          'Names of providers (keys of `providers`) this route may use; each must have the capability.',
        ),
      ...routeSettingsShape(),
    })
    .describe('A route: the providers one capability is served by, how one is chosen, and deadlines.'),
);

/** Schema of `defaults.routes` (built on first call): settings for every route that does not set them. */
export const routeDefaultsSchema = lazySchema((z) =>
  z
    .strictObject(routeSettingsShape())
    .describe('Route settings used by every route that does not set them itself.'),
);
