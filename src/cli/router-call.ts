import type { ResolvedConfig, RouteResult } from 'voxroute';
import { ownValue } from '../internal/own.js';
import { CliError } from './cli-error.js';
import type { CliContext } from './context.js';
import { EXIT_USAGE } from './exit-codes.js';

/** Capability of a route. */
export type RouteCapability = 'tts' | 'stt' | 'chat';

/**
 * The route a command uses: `--route`, else the route named after the capability.
 * @throws CliError (exit 2, message prefixed `<capability>: `, the command's name) naming the routes of that capability when there is none.
 */
export function pickRoute(
  config: ResolvedConfig,
  capability: RouteCapability,
  option: string | undefined,
): string {
  const name = option ?? capability;
  const route = ownValue(config.routes, name);
  if (route && route.capability === capability) return name;
  const fitting = Object.values(config.routes)
    .filter((r) => r.capability === capability)
    .map((r) => r.name);
  const known = fitting.length
    ? `; ${capability} routes: ${fitting.join(', ')}`
    : `; the config has no ${capability} route`;
  throw new CliError(
    route
      ? `${capability}: route '${name}' is a ${route.capability} route, not ${capability}${known}`
      : `${capability}: no route '${name}'${known}`,
    EXIT_USAGE,
  );
}

/**
 * The logical names (voices, models) the providers of a route map, in config order: what
 * `--voice`/`--model` may be. The first is the default.
 */
export function namesOf(config: ResolvedConfig, route: string, section: 'tts' | 'chat'): string[] {
  const names = new Set<string>();
  for (const provider of ownValue(config.routes, route)?.providers ?? []) {
    const p = ownValue(config.providers, provider) as
      | { tts?: { voices?: object }; chat?: { models?: object } }
      | undefined;
    const map = section === 'tts' ? p?.tts?.voices : p?.chat?.models;
    for (const name of Object.keys(map ?? {})) names.add(name);
  }
  return [...names];
}

/**
 * The voice (`tts`) or model (`chat`) a command uses: `option`, else the route's first name.
 * @throws CliError (exit 2) naming the route's voices or models when `option` is not one of them.
 */
export function pickName(
  config: ResolvedConfig,
  route: string,
  section: 'tts' | 'chat',
  option: string | undefined,
): string {
  const names = namesOf(config, route, section);
  const name = option ?? names[0];
  if (name && names.includes(name)) return name;
  const what = section === 'tts' ? 'voice' : 'model';
  throw new CliError(
    `${section}: no ${what} '${option}' on route '${route}'; ${what}s: ${names.join(', ')}`,
    EXIT_USAGE,
  );
}

/** A router over `config` (env: `ctx.env`, else `process.env`) whose fallbacks go to `ctx.stderr`. */
export async function openRouter(
  ctx: CliContext,
  config: ResolvedConfig,
): Promise<import('voxroute').Router> {
  const { createRouter } = await import('voxroute');
  const router = createRouter(config, { env: ctx.env ?? process.env });
  reportFallbacks(ctx, router);
  return router;
}

/** A one-line summary of a finished call for stderr: provider, TTFC, attempts (or that no provider was called). */
export function describeResult(result: RouteResult): string {
  // A call with nothing to send (a WAV file whose data chunk holds no whole sample) asks no provider.
  if (result.attempts.length === 0) return 'no provider called: there was nothing to send';
  const failed = result.attempts.filter((a) => a.outcome !== 'success').map((a) => a.provider);
  const fallback = failed.length ? ` after ${failed.join(', ')} failed` : '';
  return `via ${result.provider}${fallback}, first chunk in ${Math.round(result.timeToFirstChunkMs)} ms`;
}

/** Writes `ctx.stderr` lines for a router's fallback events. */
export function reportFallbacks(ctx: CliContext, router: { on: import('voxroute').Router['on'] }): void {
  router.on('fallback', (e) =>
    ctx.stderr(`voxroute: ${e.provider} failed (${errorName(e.error)}), trying ${e.next}\n`),
  );
}

function errorName(error: unknown): string {
  const e = error as { name?: unknown; code?: unknown } | null;
  return typeof e?.code === 'string' ? `${String(e.name)} ${e.code}` : String(e?.name ?? 'Error');
}
