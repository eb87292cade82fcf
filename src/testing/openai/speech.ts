import { wavHeader } from '../../audio/wav-writer.js';
import { checkOptionalObject, checkString } from '../../internal/arg-checks.js';
import type { MockErrorEvent } from '../mock-script.js';
import type { BodyPlan } from '../scripted-body.js';
import { base64, sseFrame } from '../sse.js';
import { syntheticVoiceBytes } from '../synthetic-voice.js';
import type { RequestProblem } from './chat.js';
import type { OpenAiDialect } from './dialect.js';
import { errorEventFrames } from './dialect.js';

/**
 * How the mock's speech endpoint turns text into audio.
 *
 * @example
 * ```ts
 * const mock = createOpenAiCompatibleMock({ speech: { msPerCharacter: 80, seed: 2 } });
 * ```
 */
export interface MockSpeechOptions {
  /** Audio length per character of input (Unicode code points), in ms, at speed 1. Default: 60. */
  msPerCharacter?: number | undefined;
  /** Sample rate of the audio, in Hz. Default: 24000 (OpenAI `pcm`, Kokoro). */
  sampleRate?: number | undefined;
  /** Seed of the synthetic voice. Default: 0. */
  seed?: number | undefined;
}

/**
 * The PCM s16le bytes the mock's `/audio/speech` sends for `text`: the synthetic voice
 * (see `syntheticVoice`) lasting `round(characters * msPerCharacter / speed)` ms at
 * `sampleRate`. Use it to predict a mock's audio exactly.
 *
 * @example
 * ```ts
 * const expected = mockSpeechPcm('Hello'); // 300 ms at 24 kHz: 14400 bytes
 * ```
 * @throws TypeError naming the argument when `text` is not a string or `options` not an object.
 */
export function mockSpeechPcm(
  text: string,
  options: MockSpeechOptions & { speed?: number } = {},
): Uint8Array {
  checkString('mockSpeechPcm(text, options?): text', text);
  checkOptionalObject(
    'mockSpeechPcm: options',
    'an object ({ msPerCharacter?, sampleRate?, seed?, speed? })',
    options,
  );
  const characters = Array.from(text).length;
  const durationMs = Math.round((characters * (options.msPerCharacter ?? 60)) / (options.speed ?? 1));
  return syntheticVoiceBytes({
    durationMs,
    sampleRate: options.sampleRate ?? 24000,
    seed: options.seed ?? 0,
  });
}

/** OpenAI's tts-1 models and their dated variants, which take no SSE (PROTOCOLS 2.3). */
const TTS_1 = /^tts-1(?:-hd)?(?:-\d+)?$/;

interface SpeechInput {
  dialect: OpenAiDialect;
  speech: MockSpeechOptions;
  chunkBytes: number;
  errorEvent: MockErrorEvent | undefined;
}

function slices(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.byteLength; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a, 0);
  out.set(b, a.byteLength);
  return out;
}

/**
 * The plan of a `POST /audio/speech` answer (PROTOCOLS 2.3, 6.2, 6.3) for a JSON body
 * `{ input, response_format, speed?, stream_format?, sample_rate? }`:
 * - `pcm`: raw PCM s16le, mono, in `chunkBytes` pieces; Content-Type `audio/pcm` (Kokoro,
 *   speaches) or `application/octet-stream` (OpenAI, vLLM);
 * - `wav`: a 44-byte header with placeholder sizes (0xFFFFFFFF, streamed) then the PCM, the
 *   whole byte stream cut in `chunkBytes` pieces;
 * - `stream_format: 'sse'` (not Kokoro, which has no SSE): data-only frames
 *   `{"type":"speech.audio.delta","audio":"<base64 of chunkBytes bytes>"}` then
 *   `{"type":"speech.audio.done","usage":{...}}` (speaches: `token_usage`, zeros, and always PCM).
 * `sample_rate` is honoured with the speaches dialect only. Other formats (mp3, the OpenAI
 * default, opus, aac, flac) are a problem: the mock makes no compressed audio. With the openai
 * dialect, SSE for `tts-1` and `tts-1-hd` (and their dated variants) is a problem, as at
 * OpenAI (OAS `CreateSpeechRequest.stream_format`).
 */
export function speechPlan(body: unknown, input: SpeechInput): BodyPlan | RequestProblem {
  const request = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const text = request.input;
  if (typeof text !== 'string' || text === '')
    return { status: 400, message: "'input' must be a non-empty string" };
  const speed = request.speed ?? 1;
  if (typeof speed !== 'number' || speed < 0.25 || speed > 4) {
    return { status: 400, message: "'speed' must be a number from 0.25 to 4" };
  }
  const sse = request.stream_format === 'sse' && input.dialect !== 'kokoro';
  if (sse && input.dialect === 'openai' && typeof request.model === 'string' && TTS_1.test(request.model)) {
    return { status: 400, message: "stream_format 'sse' is not supported for tts-1 or tts-1-hd" };
  }
  const format = sse && input.dialect === 'speaches' ? 'pcm' : (request.response_format ?? 'mp3');
  if (format !== 'pcm' && format !== 'wav') {
    return {
      status: 400,
      message: `response_format '${String(format)}' is not served by the mock server: use 'pcm' or 'wav'`,
    };
  }
  const sampleRate =
    input.dialect === 'speaches' && typeof request.sample_rate === 'number'
      ? request.sample_rate
      : (input.speech.sampleRate ?? 24000);
  const pcm = mockSpeechPcm(text, { ...input.speech, sampleRate, speed });
  const audio = format === 'wav' ? concat(wavHeader({ encoding: 'pcm_s16le', sampleRate }), pcm) : pcm;
  const pieces = slices(audio, Math.max(1, input.chunkBytes));

  if (sse) {
    const inputTokens = Math.ceil(text.length / 4);
    const done =
      input.dialect === 'speaches'
        ? { type: 'speech.audio.done', token_usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 } }
        : {
            type: 'speech.audio.done',
            usage: {
              input_tokens: inputTokens,
              output_tokens: pieces.length,
              total_tokens: inputTokens + pieces.length,
            },
          };
    return {
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
      chunks: pieces.map((piece) => sseFrame({ type: 'speech.audio.delta', audio: base64(piece) })),
      closing: [sseFrame(done)],
      errorFrames: errorEventFrames(input.dialect, input.errorEvent),
    };
  }
  const contentType =
    format === 'wav'
      ? 'audio/wav'
      : input.dialect === 'kokoro' || input.dialect === 'speaches'
        ? 'audio/pcm'
        : 'application/octet-stream';
  const headers: Record<string, string> = { 'content-type': contentType };
  if (input.dialect === 'kokoro') headers['x-accel-buffering'] = 'no';
  return { headers, chunks: pieces };
}
