import type { z } from 'zod';
import { resolveSecrets, type SecretEnv } from '../config-fields/resolve-secrets.js';
import type { ConfigIssue } from '../errors/config-error.js';
import type { Capability } from '../types/route-result.js';
import { isCapability } from './capability.js';
import { checkHealthUrl } from './health.js';
import { redactWhenPrinted } from './print-redaction.js';
import {
  type HedgeSetting,
  MID_STREAM_DEFAULT,
  MID_STREAM_OF,
  type MidStreamPolicy,
  ROUTE_DEFAULTS,
} from './route.js';
import type { routerConfigSchema } from './schema.js';
import type { ResolvedConfig, ResolvedProviderConfig, ResolvedRouteConfig } from './types.js';

const RESOLVED = Symbol.for('voxroute.resolvedConfig');

/** The config as the schema parses it: defaults applied, secrets not yet read. */
export type ParsedConfig = z.output<ReturnType<typeof routerConfigSchema>>;

/**
 * Makes a ResolvedConfig from a parsed one: reads every `{ env }` secret from `env`, and
 * fills each route's capability and settings (route, else `defaults.routes`, else
 * ROUTE_DEFAULTS). Unset or empty variables are pushed to `issues` with their paths; the
 * caller throws when there are any. The result is marked for {@link isResolvedConfig}.
 */
export function resolveConfig(parsed: ParsedConfig, env: SecretEnv, issues: ConfigIssue[]): ResolvedConfig {
  const providers: Record<string, ResolvedProviderConfig> = resolveSecrets(parsed.providers, env, issues, [
    'providers',
  ]);
  const defaults = parsed.defaults?.routes ?? {};
  const routes: Record<string, ResolvedRouteConfig> = {};
  for (const [name, route] of Object.entries(parsed.routes)) {
    routes[name] = {
      name,
      capability: capabilityOf(name, route.capability),
      providers: [...route.providers],
      strategy: route.strategy ?? defaults.strategy ?? ROUTE_DEFAULTS.strategy,
      firstChunkTimeoutMs:
        route.firstChunkTimeoutMs ?? defaults.firstChunkTimeoutMs ?? ROUTE_DEFAULTS.firstChunkTimeoutMs,
      idleTimeoutMs: route.idleTimeoutMs ?? defaults.idleTimeoutMs ?? ROUTE_DEFAULTS.idleTimeoutMs,
      totalTimeoutMs: route.totalTimeoutMs ?? defaults.totalTimeoutMs,
      connectTimeoutMs:
        route.connectTimeoutMs ?? defaults.connectTimeoutMs ?? ROUTE_DEFAULTS.connectTimeoutMs,
      midStream: midStreamOf(capabilityOf(name, route.capability), route.midStream ?? defaults.midStream),
      ewmaDecayMs: route.ewmaDecayMs ?? defaults.ewmaDecayMs ?? ROUTE_DEFAULTS.ewmaDecayMs,
      weights: { ...defaults.weights, ...route.weights },
      costs: { ...defaults.costs, ...route.costs },
      costLatencyFactor: route.costLatencyFactor ?? defaults.costLatencyFactor ?? 1.5,
      inFlightWeight: route.inFlightWeight ?? defaults.inFlightWeight ?? 0,
      probeAfterMs: route.probeAfterMs ?? defaults.probeAfterMs ?? 30_000,
      hedge: resolveHedge(route.hedge ?? defaults.hedge),
    };
  }
  const config: ResolvedConfig = { providers, routes };
  if (parsed.health) {
    const health = resolveSecrets(parsed.health, env, issues, ['health']);
    checkHealthUrl(health.url, issues);
    config.health = health;
  }
  Object.defineProperty(config, RESOLVED, { value: true });
  // console.log(config) and JSON.stringify(config) print `[redacted]` for every secret.
  redactWhenPrinted(config);
  return config;
}

/** The schema has checked that a route not named after a capability declares one. */
function capabilityOf(name: string, declared: Capability | undefined): Capability {
  return (isCapability(name) ? name : declared) as Capability;
}

/**
 * The route's mid-stream policy: the one set if it fits the capability (a `defaults.routes`
 * value that does not fit falls back to the capability's default), else the capability's default.
 */
function midStreamOf(capability: Capability, set: MidStreamPolicy | undefined): MidStreamPolicy {
  if (set === 'error' || (set !== undefined && MID_STREAM_OF[capability] === set)) return set;
  return MID_STREAM_DEFAULT[capability];
}

function resolveHedge(
  hedge: false | { after: 'auto' | 'p95' | 'p99' | number; maxShare?: number | undefined } | undefined,
): HedgeSetting | false {
  if (!hedge) return false;
  return { after: hedge.after, maxShare: hedge.maxShare ?? 0.1 };
}

/**
 * A copy of a resolved config with `providers` replaced, marked like the original so that
 * createRouter still takes it as resolved (the testing kit's startMockProviders points each
 * provider at its mock this way). Routes and `health` are shared with the original.
 */
export function withResolvedProviders(
  config: ResolvedConfig,
  providers: Record<string, ResolvedProviderConfig>,
): ResolvedConfig {
  const copy: ResolvedConfig = { ...config, providers };
  Object.defineProperty(copy, RESOLVED, { value: true });
  // Routes, `health` and the providers' sections are shared: their printing knows both configs' secrets.
  redactWhenPrinted(copy, config);
  return copy;
}

/**
 * True when `value` is a config made by parseConfig or loadConfig (marked with a
 * `Symbol.for` key, so it works across two copies of the package), false for a RouterConfig
 * as a user writes it. Lets createRouter accept either.
 */
export function isResolvedConfig(value: unknown): value is ResolvedConfig {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[RESOLVED] === true;
}
