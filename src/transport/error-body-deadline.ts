/**
 * The longest wait, in ms, for the rest of an error body once its status and headers arrived
 * and nothing more comes: {@link errorBodyDeadlineMs} never gives more than this. The status
 * already tells what happened (429, 5xx: try elsewhere; 401: credentials; 400: the request);
 * the body only adds the provider's message, so a body that stalls must not hold the call.
 */
export const ERROR_BODY_MAX_WAIT_MS = 1000;

/**
 * The error-body deadline of one exchange, in ms: the smaller of the idle deadline (`idleMs`,
 * when set and positive) and {@link ERROR_BODY_MAX_WAIT_MS}. It is counted from the status line
 * (not renewed by the body's chunks, so a body that trickles is bounded too); when it passes, the connection is closed (never
 * reused) and the error is built from the status, the headers and the part of the body that
 * arrived.
 */
export function errorBodyDeadlineMs(idleMs: number | undefined): number {
  return idleMs !== undefined && idleMs > 0 && idleMs < ERROR_BODY_MAX_WAIT_MS
    ? idleMs
    : ERROR_BODY_MAX_WAIT_MS;
}
