import { isTakeable, nextOf, type Takeable } from '../../internal/takeable.js';
import type { HttpResponse } from '../../transport/types.js';
import type { AudioFormat } from '../../types/audio.js';
import type { ProviderAudio } from '../types.js';

const DONE: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });

/**
 * A raw audio body (PCM, or any encoding the body is in as it stands) as provider audio, each
 * body chunk labelled with `format`; empty chunks are skipped. {@link Takeable} when the body's
 * iterator is (the transport's own: a chunk then passes by plain calls); else read with
 * `for await`. Stopping early (`return()`) or a failure cancels the response. `head`, when
 * given, is bytes already read from the body (e.g. to sniff its kind): they come first.
 */
export function rawBodyAudio(
  response: HttpResponse,
  format: AudioFormat,
  head?: Uint8Array,
): AsyncIterator<ProviderAudio> {
  const body = response.body[Symbol.asyncIterator]();
  if (!isTakeable(body)) return rawBodyChunks(response, format, head);
  let first = head !== undefined && head.byteLength > 0 ? head : undefined;
  return {
    take(): IteratorResult<ProviderAudio> | undefined {
      if (first !== undefined) {
        const data = first;
        first = undefined;
        return { value: { data, format }, done: false };
      }
      for (;;) {
        const r = body.take();
        if (r === undefined || r.done) return r;
        if (r.value.byteLength > 0) return { value: { data: r.value, format }, done: false };
      }
    },
    onReadable: (wake: () => void) => body.onReadable(wake),
    next(): Promise<IteratorResult<ProviderAudio>> {
      return nextOf(this as Takeable<ProviderAudio>);
    },
    return: () => response.cancel().then(() => DONE),
  } as Takeable<ProviderAudio>;
}

async function* rawBodyChunks(
  response: HttpResponse,
  format: AudioFormat,
  head: Uint8Array | undefined,
): AsyncGenerator<ProviderAudio> {
  let ended = false;
  try {
    if (head !== undefined && head.byteLength > 0) yield { data: head, format };
    for await (const data of response.body) if (data.byteLength > 0) yield { data, format };
    ended = true;
  } finally {
    if (!ended) await response.cancel();
  }
}

/**
 * `items` to their end, as an async generator; the response is cancelled when the reader stops
 * early (`return()`) or `items` fail (for answers read with `for await`, e.g. a WAV body).
 */
export async function* cancelUnlessEnded<T>(
  response: HttpResponse,
  items: AsyncIterable<T>,
): AsyncGenerator<T> {
  let ended = false;
  try {
    yield* items;
    ended = true;
  } finally {
    if (!ended) await response.cancel();
  }
}
