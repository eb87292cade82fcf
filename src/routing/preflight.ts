import type { ConfigError } from '../errors/config-error.js';
import type { ChatRequest, SttRequest, TtsRequest } from '../types/requests.js';
import type { Router } from './router-types.js';

/**
 * Key of a router's internal pre-flight check (not part of the public API): whether a request
 * of a capability would find a provider on its route, without contacting any. Used by
 * voiceTurn() to reject an unknown route, model or voice of any stage before its first stage
 * (STT, which is billed) starts.
 */
export const PREFLIGHT: unique symbol = Symbol('voxroute.preflight');

/** A request of one capability, as the pre-flight check takes it. */
export type PreflightRequest =
  | { capability: 'stt'; request: SttRequest }
  | { capability: 'chat'; request: ChatRequest }
  | { capability: 'tts'; request: TtsRequest };

/**
 * The ConfigError the call would end with before contacting any provider (the route does not
 * exist or is of another capability; no provider of the route maps the model or voice, or has
 * the capability), or undefined when at least one provider of the route can serve it.
 */
export type Preflight = (call: PreflightRequest) => ConfigError | undefined;

/** The pre-flight check of `router`, when it is one of voxroute's own. */
export function preflightOf(router: Router): Preflight | undefined {
  return (router as Router & { [PREFLIGHT]?: Preflight })[PREFLIGHT];
}
