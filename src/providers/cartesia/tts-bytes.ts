import { ProtocolError } from '../../errors/index.js';
import type { AudioFormat } from '../../types/audio.js';
import { postToEndpoint } from '../shared/http-endpoint.js';
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
export async function* synthesizeBytes(
  endpoint: CartesiaEndpoint,
  options: CartesiaTtsOptions,
  request: CartesiaTtsRequest & { text: string },
  attempt: AttemptContext,
): AsyncGenerator<CartesiaAudio> {
  const provider = endpoint.provider;
  const body = ttsBody(provider, request, options, request.text, false);
  const response = await postToEndpoint(endpoint.http, attempt, cartesiaUrl(endpoint, '/tts/bytes'), {
    contentType: 'application/json',
    accept: '*/*',
    body: JSON.stringify(body),
  });
  let ended = false;
  try {
    const contentType = response.headers['content-type'] ?? '';
    if (rawAudioKind(contentType) === 'other') {
      throw new ProtocolError(`/tts/bytes answered with Content-Type '${contentType}', not audio`, {
        provider,
      });
    }
    yield* sniffedAudio(provider, response.body, request.format);
    ended = true;
  } finally {
    if (!ended) await response.cancel();
  }
}

/** Raw samples labelled `format`, or a streamed WAV read with its own header's format. */
async function* sniffedAudio(
  provider: string,
  body: AsyncIterable<Uint8Array>,
  format: AudioFormat,
): AsyncGenerator<CartesiaAudio> {
  const source = body[Symbol.asyncIterator]();
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
  const rest: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => source,
  };
  if (isWavHeader(head)) {
    yield* wavBodyAudio(provider, prepend(head, finished ? empty() : rest));
    return;
  }
  if (head.byteLength > 0) yield { data: head, format };
  if (finished) return;
  for await (const data of rest) {
    if (data.byteLength > 0) yield { data, format };
  }
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
