import { isTakeable, nextOf, type Takeable } from '../../internal/takeable.js';
import type { HttpResponse } from '../../transport/types.js';
import type { AudioFormat } from '../../types/audio.js';
import type { ProviderAudio } from '../types.js';

const DONE: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });

/**
 * A raw audio body (PCM, or any encoding the body is in as it stands) as provider audio, each
 * body chunk labelled with `format`; empty chunks are skipped. {@link Takeable} when the body's
 * iterator is (the transport's own: a chunk then passes by plain calls); else read with
 * `for await`. Stopping early (`return()`) or a failure cancels the response.
 */
export function rawBodyAudio(response: HttpResponse, format: AudioFormat): AsyncIterator<ProviderAudio> {
  const body = response.body[Symbol.asyncIterator]();
  if (!isTakeable(body)) return rawBodyChunks(response, format);
  return {
    take(): IteratorResult<ProviderAudio> | undefined {
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

async function* rawBodyChunks(response: HttpResponse, format: AudioFormat): AsyncGenerator<ProviderAudio> {
  let ended = false;
  try {
    for await (const data of response.body) if (data.byteLength > 0) yield { data, format };
    ended = true;
  } finally {
    if (!ended) await response.cancel();
  }
}
