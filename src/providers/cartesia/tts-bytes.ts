import { ProtocolError } from '../../errors/index.js';
import type { HttpResponse } from '../../transport/types.js';
import type { AudioFormat } from '../../types/audio.js';
import { postToEndpoint } from '../shared/http-endpoint.js';
import { cancelUnlessEnded, rawBodyAudio } from '../shared/opened-audio.js';
import { OpenedStream } from '../shared/opened-stream.js';
import { rawAudioKind } from '../shared/raw-audio-kind.js';
import { wavBodyAudio } from '../shared/wav-body-audio.js';
import type { AttemptContext } from '../types.js';
import { type CartesiaEndpoint, cartesiaUrl } from './endpoint.js';
import type { CartesiaTtsOptions } from './options.js';
import type { CartesiaAudio } from './tts-events.js';
import { type CartesiaTtsRequest, ttsBody } from './tts-request.js';

/** Bytes needed to tell a WAV header (`RIFF....WAVE`) from raw samples. */
const SNIFF_BYTES = 12;

/**
 * TTS over `POST {baseUrl}/tts/bytes` (PROTOCOLS.md 1.3): the JSON body of `ttsBody` with
 * `output_format: {container:'raw', encoding, sample_rate}` of `request.format`; the answer is
 * the audio itself, streamed as it is generated, each body chunk yielded as it arrives and
 * labelled `request.format` (chunks may split a sample: the router re-frames). No timestamps.
 *
 * The spec types every answer `audio/wav` and the real Content-Type of raw output is
 * UNCONFIRMED, so the body is sniffed instead: one that starts with a RIFF/WAVE header is read
 * as a streamed WAV and labelled with the header's format (never relabelled). Throws what
 * the transport throws (ProviderError for an error status, TimeoutError, AbortError,
 * ProtocolError for a cut body), and ProtocolError when the Content-Type is compressed audio,
 * JSON or text.
 */
export function synthesizeBytes(
  endpoint: CartesiaEndpoint,
  options: CartesiaTtsOptions,
  request: CartesiaTtsRequest & { text: string },
  attempt: AttemptContext,
): AsyncIterableIterator<CartesiaAudio> {
  // Raw samples, the common case, are read by plain calls from the transport's body (no
  // generator step per chunk): see OpenedStream.
  return new OpenedStream<CartesiaAudio>(async () => {
    const provider = endpoint.provider;
    const body = ttsBody(provider, request, options, request.text, false);
    const response = await postToEndpoint(endpoint.http, attempt, cartesiaUrl(endpoint, '/tts/bytes'), {
      contentType: 'application/json',
      accept: '*/*',
      body: JSON.stringify(body),
    });
    try {
      const contentType = response.headers['content-type'] ?? '';
      if (rawAudioKind(contentType) === 'other') {
        throw new ProtocolError(`/tts/bytes answered with Content-Type '${contentType}', not audio`, {
          provider,
        });
      }
      return await sniffedAudio(provider, response, request.format);
    } catch (error) {
      await response.cancel();
      throw error;
    }
  });
}

/**
 * Raw samples labelled `format` (see `rawBodyAudio`), or a streamed WAV read with its own
 * header's format; told apart by the first SNIFF_BYTES bytes, read here.
 */
async function sniffedAudio(
  provider: string,
  response: HttpResponse,
  format: AudioFormat,
): Promise<AsyncIterator<CartesiaAudio>> {
  const source = response.body[Symbol.asyncIterator]();
  let head: Uint8Array = new Uint8Array(0);
  let finished = false;
  while (head.byteLength < SNIFF_BYTES) {
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

/** True when `bytes` starts with `RIFF` ... `WAVE`. */
function isWavHeader(bytes: Uint8Array): boolean {
  const tag = (offset: number) => String.fromCharCode(...bytes.subarray(offset, offset + 4));
  return bytes.byteLength >= SNIFF_BYTES && tag(0) === 'RIFF' && tag(8) === 'WAVE';
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
