/** Events read after a stream's end marker before the body is closed instead of drained. */
const MAX_EVENTS_AFTER_END = 64;

/**
 * Reads what is left of an event stream whose end marker (`[DONE]`, `message_stop`...) was
 * seen, in the background, so that its connection ends cleanly and goes back to the pool; after
 * {@link MAX_EVENTS_AFTER_END} more events the body is closed instead (`return()`). Errors are
 * ignored: the caller already has the whole answer.
 */
export function drainRest(events: AsyncIterator<unknown>): void {
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
