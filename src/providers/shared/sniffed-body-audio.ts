import { formatLabel } from '../../audio/format.js';
import { ProtocolError } from '../../errors/index.js';
import type { HttpResponse } from '../../transport/types.js';
import type { AudioFormat } from '../../types/audio.js';
import type { ProviderAudio } from '../types.js';
import { declaredAudio } from './answer-audio.js';
import { SNIFF_BYTES, sniffBodyHead } from './body-signature.js';
import { cancelUnlessEnded, rawBodyAudio } from './opened-audio.js';
import { wavBodyAudio } from './wav-body-audio.js';

/**
 * The audio of a body asked for as raw samples in `format` whose Content-Type does not say WAV
 * (raw, or unlabelled such as `application/octet-stream`). Its first bytes are read first
 * ({@link SNIFF_BYTES}, more only when they start like an MPEG frame and the Content-Type is not a
 * raw-sample type such as `audio/basic` or `audio/L16`, where MP3 is not plausible) and
 * classified by `sniffBodyHead`:
 * - `RIFF....WAVE`: read as a streamed WAV and labelled with its header's format (never
 *   relabelled: the router converts it, or fails the attempt with a ProtocolError when it
 *   cannot), whatever the Content-Type says;
 * - a known file that is not raw samples (MP3, Ogg, FLAC, WebM, RIFF other than WAVE) or JSON,
 *   HTML or XML text: a ProtocolError (retryable, nothing yielded: the route falls back);
 * - anything else: raw samples labelled `format`, read by plain calls from the transport's body
 *   (see `rawBodyAudio`), the sniffed bytes first.
 * Only the start of the body is looked at, once. The response is cancelled on a ProtocolError.
 */
export async function sniffedBodyAudio(
  provider: string,
  response: HttpResponse,
  format: AudioFormat,
): Promise<AsyncIterator<ProviderAudio>> {
  const source = response.body[Symbol.asyncIterator]();
  let head: Uint8Array = new Uint8Array(0);
  let finished = false;
  const type = response.headers['content-type'];
  const mpegFrames = type === undefined || declaredAudio(type).kind !== 'raw';
  let signature = sniffBodyHead(head, false, mpegFrames);
  while (signature.kind === 'more') {
    const step = await source.next();
    if (step.done) finished = true;
    else head = join(head, step.value);
    signature = sniffBodyHead(head, finished, mpegFrames);
  }
  if (signature.kind === 'foreign') {
    await response.cancel();
    throw new ProtocolError(
      `Audio answer is ${signature.what}, not ${formatLabel(format)} (Content-Type ${type ? `'${type}'` : 'none'})`,
      { provider },
    );
  }
  if (signature.kind === 'raw') return rawBodyAudio(response, format, head);
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
