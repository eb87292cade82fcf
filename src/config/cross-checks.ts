import type { z } from 'zod';
import { CAPABILITIES, isCapability } from './capability.js';
import { didYouMean } from './did-you-mean.js';
import { PROVIDER_KINDS } from './provider-kinds.js';
import { MID_STREAM_OF } from './route.js';

/**
 * The checks of a router config that span fields, run by the config schema after the
 * fields themselves (and also when some fields are invalid, so every problem is reported at
 * once). Each issue has the full path of the offending value:
 * - a provider of a known kind needs at least one capability section (`tts`, `stt`, `chat`);
 * - a route named other than `tts`/`stt`/`chat` must set `capability`, and one so named
 *   must not set a different one; a route's `name`, when given (a resolved config's copy of
 *   the key, e.g. in a spread copy of one), is its key;
 * - each provider a route names exists, has the route's capability, and is named once;
 * - each key of a route's `weights` and `costs` is one of the route's providers, and each key
 *   of `defaults.routes.weights`/`costs` a configured provider (with a did-you-mean);
 * - a route of strategy `weighted` gives at least one of its providers a weight above 0 (its
 *   own `weights` over `defaults.routes.weights`, 1 when neither names the provider).
 * The input is read defensively: parts that failed their own schema are skipped.
 */
export function checkConfigReferences(config: unknown, ctx: Pick<z.RefinementCtx, 'addIssue'>): void {
  if (!isRecord(config)) return;
  const providers = isRecord(config.providers) ? config.providers : undefined;
  if (providers) {
    for (const [name, provider] of Object.entries(providers)) {
      if (!isRecord(provider) || !(PROVIDER_KINDS as readonly unknown[]).includes(provider.kind)) continue;
      if (!CAPABILITIES.some((cap) => provider[cap] !== undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: ['providers', name],
          message: 'has no capability: add a tts, stt or chat section',
        });
      }
    }
  }
  const defaults =
    isRecord(config.defaults) && isRecord(config.defaults.routes) ? config.defaults.routes : undefined;
  if (defaults && providers) {
    checkAmountKeys(defaults, ['defaults', 'routes'], Object.keys(providers), 'configured provider', ctx);
  }
  if (!isRecord(config.routes)) return;
  for (const [routeName, route] of Object.entries(config.routes)) {
    if (!isRecord(route)) continue;
    if (route.name !== undefined && route.name !== routeName && typeof route.name === 'string') {
      ctx.addIssue({
        code: 'custom',
        path: ['routes', routeName, 'name'],
        message: `is "${route.name}", not this route's key "${routeName}" (a route's name is its key: leave it out)`,
      });
    }
    const capability = routeCapability(routeName, route, ctx);
    const midStream = route.midStream;
    const fits = capability ? MID_STREAM_OF[capability as keyof typeof MID_STREAM_OF] : undefined;
    if (fits && midStream !== undefined && midStream !== 'error' && midStream !== fits) {
      // One issue for the field: this one replaces the schema's list of every policy, which
      // would offer values this route cannot take (toConfigIssues drops it).
      const known = (Object.values(MID_STREAM_OF) as unknown[]).includes(midStream);
      ctx.addIssue({
        code: 'custom',
        path: ['routes', routeName, 'midStream'],
        message: known
          ? `"${midStream}" is not for a ${capability} route: use "error" or "${fits}"`
          : `must be "error" or "${fits}" on a ${capability} route`,
      });
    }
    if (!Array.isArray(route.providers)) continue;
    const names = route.providers.filter((name): name is string => typeof name === 'string');
    checkAmountKeys(route, ['routes', routeName], names, 'provider of this route', ctx);
    checkSomeWeight(routeName, route, defaults, names, ctx);
    const seen = new Set<string>();
    route.providers.forEach((name: unknown, index) => {
      if (typeof name !== 'string' || name === '') return;
      const path = ['routes', routeName, 'providers', index];
      if (seen.has(name)) {
        ctx.addIssue({ code: 'custom', path, message: `names provider "${name}" twice` });
        return;
      }
      seen.add(name);
      if (!providers) return;
      const provider = Object.hasOwn(providers, name) ? providers[name] : undefined;
      if (provider === undefined) {
        const known = Object.keys(providers).map((key) => `"${key}"`);
        ctx.addIssue({
          code: 'custom',
          path,
          message: `unknown provider "${name}"; the config has ${known.length ? known.join(', ') : 'none'}`,
        });
      } else if (capability && isRecord(provider) && provider[capability] === undefined) {
        ctx.addIssue({
          code: 'custom',
          path,
          message: `provider "${name}" has no ${capability} capability (no ${capability} section in providers.${name})`,
        });
      }
    });
  }
}

/**
 * Reports each key of `settings.weights` and `settings.costs` that is not in `allowed` (provider
 * names), at its own path, e.g. `routes.tts.weights.typo: not a provider of this route; did you
 * mean "ec2"?`. A typo there would silently leave the provider at its default weight or cost.
 */
function checkAmountKeys(
  settings: Record<string, unknown>,
  path: readonly string[],
  allowed: readonly string[],
  what: string,
  ctx: Pick<z.RefinementCtx, 'addIssue'>,
): void {
  for (const field of ['weights', 'costs'] as const) {
    const amounts = settings[field];
    if (!isRecord(amounts)) continue;
    for (const key of Object.keys(amounts)) {
      if (allowed.includes(key)) continue;
      const meant = didYouMean(key, allowed);
      const list = allowed.map((name) => `"${name}"`).join(', ');
      ctx.addIssue({
        code: 'custom',
        path: [...path, field, key],
        message: meant ? `not a ${what}; did you mean "${meant}"?` : `not a ${what} (${list || 'none'})`,
      });
    }
  }
}

/**
 * Reports a route of strategy `weighted` (its own or `defaults.routes.strategy`) whose every
 * provider has weight 0, at the `weights` that set the last of those zeros: the route's own
 * (`routes.chat.weights`) when it has any, else `defaults.routes.weights`. A weight of 0 draws
 * a provider only after those with a weight: with none, no draw is left to make.
 */
function checkSomeWeight(
  routeName: string,
  route: Record<string, unknown>,
  defaults: Record<string, unknown> | undefined,
  names: readonly string[],
  ctx: Pick<z.RefinementCtx, 'addIssue'>,
): void {
  const strategy = route.strategy ?? defaults?.strategy;
  if (strategy !== 'weighted' || names.length === 0) return;
  const own = isRecord(route.weights) ? route.weights : {};
  const inherited = isRecord(defaults?.weights) ? defaults.weights : {};
  const weightOf = (name: string): unknown =>
    Object.hasOwn(own, name) ? own[name] : Object.hasOwn(inherited, name) ? inherited[name] : 1;
  if (!names.every((name) => weightOf(name) === 0)) return;
  const ownZero = names.some((name) => Object.hasOwn(own, name));
  ctx.addIssue({
    code: 'custom',
    path: ownZero ? ['routes', routeName, 'weights'] : ['defaults', 'routes', 'weights'],
    message:
      'gives every provider of the route weight 0: give at least one a weight above 0 (0 draws a provider only after those with a weight)',
  });
}

/** The route's capability, reporting a missing or contradicting `capability` field. */
function routeCapability(
  routeName: string,
  route: Record<string, unknown>,
  ctx: Pick<z.RefinementCtx, 'addIssue'>,
): string | undefined {
  const declared = typeof route.capability === 'string' ? route.capability : undefined;
  if (isCapability(routeName)) {
    if (declared !== undefined && declared !== routeName) {
      ctx.addIssue({
        code: 'custom',
        path: ['routes', routeName, 'capability'],
        message: `the route named "${routeName}" serves ${routeName}; remove capability or rename the route`,
      });
    }
    return routeName;
  }
  if (route.capability === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['routes', routeName, 'capability'],
      message: `required for a route not named tts, stt or chat: set capability to "tts", "stt" or "chat"`,
    });
  }
  return declared !== undefined && isCapability(declared) ? declared : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
