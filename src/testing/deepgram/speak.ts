import { wavHeader } from '../../audio/wav-writer.js';
import { checkObject, checkOptionalObject, checkString } from '../../internal/arg-checks.js';
import type { AudioFormat } from '../../types/audio.js';
import type { BodyPlan } from '../scripted-body.js';
import { syntheticAudioFor } from '../synthetic-audio.js';

/**
 * How the Deepgram mock's `/v1/speak` turns text into audio.
 *
 * @example
 * ```ts
 * const mock = createDeepgramMock({ speech: { msPerCharacter: 80, seed: 2 } });
 * ```
 */
export interface DeepgramMockSpeechOptions {
  /** Audio length per character of text (Unicode code points), in ms, at speed 1. Default: 60. */
  msPerCharacter?: number | undefined;
  /** Seed of the synthetic voice. Default: 0. */
  seed?: number | undefined;
}

/** Sample rates the mock's `/v1/speak` serves per encoding (DGJS `SpeakV1SampleRate`; G.711 at 8 and 16 kHz). */
const RATES: Record<string, readonly number[]> = {
  linear16: [8_000, 16_000, 24_000, 32_000, 48_000],
  mulaw: [8_000, 16_000],
  alaw: [8_000, 16_000],
};

const ENCODINGS: Record<string, AudioFormat['encoding']> = {
  linear16: 'pcm_s16le',
  mulaw: 'mulaw',
  alaw: 'alaw',
};

/**
 * The raw audio bytes the mock's `/v1/speak` sends for `text` in `format`: the synthetic voice
 * (see `syntheticAudio`) lasting `round(characters * msPerCharacter / speed)` ms. Use it to
 * predict a mock's audio exactly.
 *
 * @example
 * ```ts
 * const ulaw = mockDeepgramSpeech('Hello', { encoding: 'mulaw', sampleRate: 8000 }); // 300 ms: 2400 bytes
 * ```
 * @throws TypeError naming the argument when `text` is not a string, `format` or `options` not
 *   an object; RangeError as `syntheticAudio` does.
 */
export function mockDeepgramSpeech(
  text: string,
  format: AudioFormat,
  options: DeepgramMockSpeechOptions & { speed?: number } = {},
): Uint8Array {
  checkString('mockDeepgramSpeech(text, format, options?): text', text);
  checkObject(
    'mockDeepgramSpeech(text, format, options?): format',
    'an AudioFormat ({ encoding, sampleRate })',
    format,
  );
  checkOptionalObject(
    'mockDeepgramSpeech: options',
    'an object ({ msPerCharacter?, seed?, speed? })',
    options,
  );
  const characters = Array.from(text).length;
  const durationMs = Math.round((characters * (options.msPerCharacter ?? 60)) / (options.speed ?? 1));
  return syntheticAudioFor('mockDeepgramSpeech', { durationMs, format, seed: options.seed ?? 0 });
}

/** Why a speak request was refused: HTTP status and message. */
export interface SpeakProblem {
  status: number;
  message: string;
}

function slices(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.byteLength; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

/**
 * The plan of a `POST /v1/speak` answer (PROTOCOLS.md 3.3) for the JSON `body` and the URL's
 * `query`:
 * - the body must be exactly `{"text": "<non-empty>"}` (every option goes in the query);
 * - `encoding` is required (`linear16`, `mulaw` or `alaw`: the mock makes no compressed
 *   audio) and `sample_rate` too (linear16: 8000, 16000, 24000, 32000, 48000 Hz; G.711: 8000,
 *   16000): Deepgram's documented defaults disagree, so the mock asks for explicit values;
 * - `container`: `none` sends raw samples (Content-Type `application/octet-stream`, the mock's
 *   choice); `wav` or no container sends a 44-byte WAV header with streaming sizes, then the
 *   samples (Content-Type `audio/wav`; a WAV container is the documented REST default);
 * - `speed` (optional, > 0) scales the duration; `model` is any voice id.
 * The bytes are cut in `chunkBytes` pieces.
 */
export function speakPlan(
  body: unknown,
  query: URLSearchParams,
  input: { speech: DeepgramMockSpeechOptions; chunkBytes: number },
): BodyPlan | SpeakProblem {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { status: 400, message: 'The body must be a JSON object {"text": "..."}' };
  }
  const { text, ...rest } = body as Record<string, unknown>;
  if (typeof text !== 'string' || text.trim() === '') {
    return { status: 400, message: "'text' must be a non-empty string" };
  }
  const extra = Object.keys(rest);
  if (extra.length > 0) {
    return { status: 400, message: `Unknown body field '${extra[0]}': options go in the query string` };
  }
  const encodingName = query.get('encoding');
  const encoding = encodingName === null ? undefined : ENCODINGS[encodingName];
  if (encodingName === null || encoding === undefined) {
    return {
      status: 400,
      message: `encoding '${encodingName ?? ''}' is not served by the mock server: use linear16, mulaw or alaw`,
    };
  }
  const sampleRate = Number(query.get('sample_rate'));
  if (!RATES[encodingName]!.includes(sampleRate)) {
    return {
      status: 400,
      message: `sample_rate '${query.get('sample_rate') ?? ''}' is not valid for ${encodingName}: use one of ${RATES[encodingName]!.join(', ')}`,
    };
  }
  const container = query.get('container') ?? 'wav';
  if (container !== 'none' && container !== 'wav') {
    return {
      status: 400,
      message: `container '${container}' is not served by the mock server: use none or wav`,
    };
  }
  const speedText = query.get('speed');
  const speed = speedText === null ? 1 : Number(speedText);
  if (!Number.isFinite(speed) || speed <= 0)
    return { status: 400, message: "'speed' must be a positive number" };
  const format: AudioFormat = { encoding, sampleRate };
  const samples = mockDeepgramSpeech(text, format, { ...input.speech, speed });
  const audio = container === 'wav' ? concat(wavHeader(format), samples) : samples;
  return {
    headers: { 'content-type': container === 'wav' ? 'audio/wav' : 'application/octet-stream' },
    chunks: slices(audio, Math.max(1, input.chunkBytes)),
  };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a, 0);
  out.set(b, a.byteLength);
  return out;
}
