import type { HttpResponse } from './types.js';

/** Events read after a stream's end marker before the body is closed instead of drained. */
const MAX_EVENTS_AFTER_END = 64;

/**
 * How long, in ms, the rest of a body may stay open after its end marker before the connection
 * is closed instead of reused. A server ends its body right after the marker (the last chunk of
 * a chunked body follows in the same write or the next); one that keeps it open would otherwise
 * hold a pooled connection for as long as it likes.
 */
export const AFTER_END_MS = 1_000;

/**
 * Reads what is left of an event stream whose end marker (`[DONE]`, `message_stop`...) was
 * seen, in the background, so that its connection ends cleanly and goes back to the pool. The
 * body is closed instead (`return()`) after {@link MAX_EVENTS_AFTER_END} more events, and, when
 * `response` is given, when it has not ended {@link AFTER_END_MS} after the marker
 * (`response.endWithin`). Errors are ignored: the caller already has the whole answer.
 */
export function drainRest(events: AsyncIterator<unknown>, response?: Pick<HttpResponse, 'endWithin'>): void {
  response?.endWithin?.(AFTER_END_MS);
  let count = 0;
  const step = (result: IteratorResult<unknown>): void => {
    if (result.done) return;
    if (++count > MAX_EVENTS_AFTER_END) {
      void Promise.resolve(events.return?.()).catch(noop);
      return;
    }
    events.next().then(step, noop);
  };
  events.next().then(step, noop);
}

function noop(): void {}
