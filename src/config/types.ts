import type { Capability } from '../types/route-result.js';
import type { ResolvedProviderConfigOfKind } from './config-types.js';
import type { ResolvedHealthConfig } from './health.js';
import type { FirstChunkTimeout, HedgeSetting, MidStreamPolicy, RouteStrategy } from './route.js';

// The config types users write (RouterConfig, RouteConfig, ProviderConfig), generated from the
// schemas by scripts/config-types.mjs so that every field carries its description as a doc comment.
// ResolvedProviderConfigOfKind is the output side, written out the same way (test/config/config-types.test.ts
// keeps it equal to ResolveSecrets<z.output<providerSchema>>).
export type { ProviderConfig, RouteConfig, RouterConfig } from './config-types.js';

/**
 * One provider after parsing: defaults applied (e.g. `baseUrl` of kind `openai`,
 * `tts.responseFormat` `'pcm'`, `tts.sampleRate` 24000 Hz, `stt.streaming` true, `headers`
 * `{}`), `baseUrl` without a trailing slash, and every secret a plain string (`apiKey` is a
 * string, or undefined when the config has none).
 */
export type ResolvedProviderConfig = ResolvedProviderConfigOfKind;

/**
 * One route after parsing: its capability made explicit and every setting filled from the
 * route, else the config's `defaults.routes`, else voxroute's default (ROUTE_DEFAULTS).
 * Durations are ms.
 */
export interface ResolvedRouteConfig {
  /** The route's name (its key in `routes`). */
  name: string;
  /** What it serves. */
  capability: Capability;
  /** Provider names in the order the config lists them; each exists and has `capability`. */
  providers: string[];
  /** How a provider is chosen. Default `'latency'`. */
  strategy: RouteStrategy;
  /** First-chunk deadline per attempt: ms, `'auto'` or `false` (none). Default `'auto'`. */
  firstChunkTimeoutMs: FirstChunkTimeout;
  /** Longest gap between chunks, ms. Default 5000. */
  idleTimeoutMs: number;
  /** Deadline for the whole call, all attempts included, ms; undefined: none. */
  totalTimeoutMs: number | undefined;
  /** Connection deadline, ms. Default 2000. */
  connectTimeoutMs: number;
  /** Failure after the first chunk ends the stream with an error. Default `'error'`. */
  midStream: MidStreamPolicy;
  /** Decay time of the EWMA in the latency score, ms. Default 10000. */
  ewmaDecayMs: number;
  /** Strategy `weighted`: provider -> weight (missing: 1). */
  weights: Record<string, number>;
  /** Strategy `cost`: provider -> cost (missing: 0). */
  costs: Record<string, number>;
  /** Strategy `cost`: latency bound as a factor of the best score. Default 1.5. */
  costLatencyFactor: number;
  /** Strategy `latency`: score x (1 + inFlightWeight x attempts running). Default 0 (load ignored). */
  inFlightWeight: number;
  /** Strategy `latency`: re-probe a provider not tried for this long, ms. Default 30000. */
  probeAfterMs: number;
  /** Hedging, or false (default). */
  hedge: HedgeSetting | false;
}

/**
 * A validated router config, ready for the router: every provider resolved (see
 * {@link ResolvedProviderConfig}) and every route complete (see {@link ResolvedRouteConfig}).
 * Made by parseConfig or loadConfig, which mark it so isResolvedConfig recognises it.
 */
export interface ResolvedConfig {
  /** Every provider by its name in the config, defaults applied and secrets read. */
  providers: Record<string, ResolvedProviderConfig>;
  /** Every route by its name, with the `defaults.routes` settings and the built-in defaults filled in. */
  routes: Record<string, ResolvedRouteConfig>;
  /** Fleet-shared health, when the config has a `health` section. */
  health?: ResolvedHealthConfig;
}
