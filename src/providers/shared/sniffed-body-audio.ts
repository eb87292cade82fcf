import { isWavHeader, WAV_SNIFF_BYTES } from '../../audio/wav-sniff.js';
import type { HttpResponse } from '../../transport/types.js';
import type { AudioFormat } from '../../types/audio.js';
import type { ProviderAudio } from '../types.js';
import { cancelUnlessEnded, rawBodyAudio } from './opened-audio.js';
import { wavBodyAudio } from './wav-body-audio.js';

/**
 * The audio of a body asked for as raw samples in `format` whose Content-Type does not say WAV
 * (raw, or unlabelled such as `application/octet-stream`). Servers that ignore the requested
 * raw format answer a WAV file under such types, so the first {@link WAV_SNIFF_BYTES} bytes are
 * read first: a body that starts `RIFF....WAVE` is read as a streamed WAV and labelled with
 * its header's format (never relabelled: the router converts it, or fails the attempt with a
 * ProtocolError when it cannot); anything else is raw samples labelled `format`, read by plain
 * calls from the transport's body (see `rawBodyAudio`), the sniffed bytes first. Only the
 * start of the body is looked at, once.
 */
export async function sniffedBodyAudio(
  provider: string,
  response: HttpResponse,
  format: AudioFormat,
): Promise<AsyncIterator<ProviderAudio>> {
  const source = response.body[Symbol.asyncIterator]();
  let head: Uint8Array = new Uint8Array(0);
  let finished = false;
  while (head.byteLength < WAV_SNIFF_BYTES) {
    const step = await source.next();
    if (step.done) {
      finished = true;
      break;
    }
    head = join(head, step.value);
  }
  if (!isWavHeader(head)) return rawBodyAudio(response, format, head);
  const rest: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => source,
  };
  return cancelUnlessEnded(response, wavBodyAudio(provider, prepend(head, finished ? empty() : rest)));
}

function join(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.byteLength === 0) return b;
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a, 0);
  out.set(b, a.byteLength);
  return out;
}

async function* prepend(first: Uint8Array, rest: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield first;
  yield* rest;
}

async function* empty(): AsyncGenerator<Uint8Array> {}
