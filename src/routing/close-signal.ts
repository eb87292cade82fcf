import { AbortError } from '../errors/abort-error.js';
import type { Router } from './router-types.js';

/**
 * Key of a router's close signal (not part of the public API): aborted by `router.close()`.
 * voiceTurn() reads it so that a turn's `result` awaited before the turn is iterated settles
 * when the router closes.
 */
export const CLOSE_SIGNAL: unique symbol = Symbol('voxroute.closeSignal');

/** The close signal of `router`, when it is one of voxroute's own. */
export function closeSignalOf(router: Router): AbortSignal | undefined {
  return (router as Router & { [CLOSE_SIGNAL]?: AbortSignal })[CLOSE_SIGNAL];
}

/** The error of a call made after `router.close()`: AbortError "The router was closed". */
export function routerClosed(): AbortError {
  return new AbortError('The router was closed');
}
