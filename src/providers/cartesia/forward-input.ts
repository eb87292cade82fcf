/** The task that forwards a caller's streamed input (audio or text) to a socket; see {@link forwardInput}. */
export interface InputForwarder {
  /** True once the input ended and its end was sent. */
  ended(): boolean;
  /** Stops reading the input (closes the iterable) unless it already ended. */
  stop(): void;
}

/**
 * Reads `input` in the background and sends each item with `steps.send` as it arrives (items
 * `steps.skip` rejects, e.g. empty chunks, are passed over), then the end of input with
 * `steps.end` and, when that was sent, calls `steps.onEnded`. Stops quietly when a send returns
 * false (the socket no longer takes frames: its reader reports why) or after `stop()`. An error
 * of the iterable goes to `steps.fail` unless stopped.
 */
export function forwardInput<T>(
  input: AsyncIterable<T>,
  steps: {
    skip: (item: T) => boolean;
    send: (item: T) => boolean;
    end: () => boolean;
    onEnded?: () => void;
    fail: (error: unknown) => void;
  },
): InputForwarder {
  let ended = false;
  let stopped = false;
  const iterator = input[Symbol.asyncIterator]();
  void (async () => {
    try {
      for (;;) {
        const step = await iterator.next();
        if (stopped) return;
        if (step.done) break;
        if (steps.skip(step.value)) continue;
        if (!steps.send(step.value)) return;
      }
      if (steps.end()) {
        ended = true;
        steps.onEnded?.();
      }
    } catch (error) {
      if (!stopped) steps.fail(error);
    }
  })();
  return {
    ended: () => ended,
    stop() {
      if (stopped) return;
      stopped = true;
      if (!ended) void Promise.resolve(iterator.return?.()).catch(() => {});
    },
  };
}
