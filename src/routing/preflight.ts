import type { ConfigError } from '../errors/config-error.js';
import type { RequestError } from '../errors/request-error.js';
import type { ChatRequest, SttRequest, TtsRequest } from '../types/requests.js';
import type { Router } from './router-types.js';

/**
 * Key of a router's internal pre-flight check (not part of the public API): whether a request
 * of a capability would find a provider on its route, without contacting any. Used by
 * voiceTurn() to reject an unknown route, model or voice of any stage before its first stage
 * (STT, which is billed) starts.
 */
export const PREFLIGHT: unique symbol = Symbol('voxroute.preflight');

/**
 * A request of one capability, as the pre-flight check takes it; `routeField` names the field
 * that gave `request.route` in a RequestError (default `'route'`; voiceTurn's `'routes.tts'`).
 */
export type PreflightRequest = { routeField?: string } & (
  | { capability: 'stt'; request: SttRequest }
  | { capability: 'chat'; request: ChatRequest }
  | { capability: 'tts'; request: TtsRequest }
);

/**
 * The error the call would end with before contacting any provider, or undefined when at
 * least one provider of the route can serve it: a RequestError when the caller named a route
 * that does not exist or is of another capability, or asked for a model or voice no provider
 * of the route maps; a ConfigError when the capability's default route is not in the config.
 */
export type Preflight = (call: PreflightRequest) => ConfigError | RequestError | undefined;

/** The pre-flight check of `router`, when it is one of voxroute's own. */
export function preflightOf(router: Router): Preflight | undefined {
  return (router as Router & { [PREFLIGHT]?: Preflight })[PREFLIGHT];
}
