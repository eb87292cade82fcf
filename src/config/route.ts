import { z } from 'zod';
import { CAPABILITIES } from './capability.js';
import { msSchema } from './fields.js';
import { lazy } from './lazy.js';

/** How a route chooses among its providers. */
export type RouteStrategy = 'latency' | 'priority';

/** What a route does when a provider fails after its first chunk. Only `'error'` for now. */
export type MidStreamPolicy = 'error';

/** Per-attempt first-chunk deadline: ms, `'auto'` (from the measured tail), or `false` (none). */
export type FirstChunkTimeout = number | 'auto' | false;

/**
 * The route settings that have defaults, with the value voxroute uses when neither the route
 * nor the config's `defaults.routes` sets one. `totalTimeoutMs` and `ewmaDecayMs` have none:
 * unset means no overall deadline, and the router's own decay time.
 */
export const ROUTE_DEFAULTS = {
  strategy: 'latency',
  firstChunkTimeoutMs: 'auto',
  idleTimeoutMs: 5_000,
  connectTimeoutMs: 2_000,
  midStream: 'error',
} as const satisfies {
  strategy: RouteStrategy;
  firstChunkTimeoutMs: FirstChunkTimeout;
  idleTimeoutMs: number;
  connectTimeoutMs: number;
  midStream: MidStreamPolicy;
};

/** The settings a route may set, and `defaults.routes` may set for every route. */
const routeSettingsShape = () => ({
  strategy: z
    .enum(['latency', 'priority'])
    .optional()
    .describe(
      '"latency": the provider with the lowest measured time to first chunk, still probing unmeasured ones; "priority": the listed order. Default "latency".',
    )
    .meta({ default: ROUTE_DEFAULTS.strategy }),
  firstChunkTimeoutMs: z
    .union([msSchema('Fixed deadline in ms.'), z.literal('auto'), z.literal(false)], {
      error: 'expected a number of ms, "auto" or false',
    })
    .optional()
    .describe(
      'Deadline per attempt for its first chunk, in ms; "auto" derives it from the provider\'s measured tail (with a floor and a ceiling); false: none. Default "auto".',
    )
    .meta({ default: ROUTE_DEFAULTS.firstChunkTimeoutMs }),
  idleTimeoutMs: msSchema(
    'Longest gap between two chunks of a stream, in ms, before the attempt fails with a TimeoutError (phase idle). Default 5000.',
  )
    .optional()
    .meta({ default: ROUTE_DEFAULTS.idleTimeoutMs }),
  totalTimeoutMs: msSchema(
    'Deadline for a whole call, all attempts included, in ms (TimeoutError phase total). Default: none.',
  ).optional(),
  connectTimeoutMs: msSchema(
    'Deadline to open a connection (TCP + TLS) to a provider, in ms (TimeoutError phase connect). Default 2000.',
  )
    .optional()
    .meta({ default: ROUTE_DEFAULTS.connectTimeoutMs }),
  midStream: z
    .enum(['error'])
    .optional()
    .describe(
      'What happens when a provider fails after its first chunk: "error" ends the stream with a typed error (partialOutput true). Default "error".',
    )
    .meta({ default: ROUTE_DEFAULTS.midStream }),
  ewmaDecayMs: msSchema(
    "Decay time in ms of the peak-EWMA latency score: how fast old samples stop counting. Default: the router's.",
  ).optional(),
});

/** Schema of one route (built on first call): which providers serve it, how one is chosen, its deadlines. */
export const routeSchema = lazy(() =>
  z
    .strictObject({
      capability: z
        .enum(CAPABILITIES)
        .optional()
        .describe(
          'What the route serves. Implicit for routes named "tts", "stt" and "chat"; required for any other name (e.g. "tts-premium").',
        ),
      providers: z
        .array(z.string().min(1, 'must not be empty'))
        .min(1, 'must name at least one provider')
        .describe(
          'Names of providers (keys of `providers`) this route may use; each must have the capability.',
        ),
      ...routeSettingsShape(),
    })
    .describe('A route: the providers one capability is served by, how one is chosen, and deadlines.'),
);

/** Schema of `defaults.routes` (built on first call): settings for every route that does not set them. */
export const routeDefaultsSchema = lazy(() =>
  z
    .strictObject(routeSettingsShape())
    .describe('Route settings used by every route that does not set them itself.'),
);
