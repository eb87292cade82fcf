import type { HttpResponse } from '../../transport/types.js';
import { sseJsonEvents } from '../shared/sse-json-events.js';

/** What {@link assembledSse} drives: the chat or transcription assembler of one response. */
export interface SseAssembler<T> {
  /** Whether output reached the caller (for `partialOutput`). */
  readonly hadOutput: boolean;
  /** The events at the end of the stream: `[DONE]` (`'done'`) or the body's end (`'eof'`). */
  end(how: 'done' | 'eof'): T[];
}

/**
 * The events an assembler makes of an OpenAI-style SSE response body: each JSON event goes
 * through `push` (which checks it and returns its events, and `done` when it ended the
 * stream), `[DONE]` and the end of the body through `assembler.end`. A read that stops early
 * (an error, the consumer's `return()`) cancels the body; throws what `sseJsonEvents`, `push`
 * and `end` throw.
 */
export async function* assembledSse<T>(
  provider: string,
  response: HttpResponse,
  assembler: SseAssembler<T>,
  push: (value: unknown) => { events: T[]; done: boolean },
): AsyncGenerator<T> {
  let ended = false;
  try {
    for await (const item of sseJsonEvents(provider, response.body, () => assembler.hadOutput)) {
      if (item.kind === 'done') {
        ended = true;
        yield* assembler.end('done');
        return;
      }
      const step = push(item.value);
      if (step.done) ended = true;
      yield* step.events;
      if (step.done) return;
    }
    ended = true;
    yield* assembler.end('eof');
  } finally {
    if (!ended) await response.cancel();
  }
}
