import { checkObject, checkOptionalObject, checkString } from '../../internal/arg-checks.js';
import { DEFAULT_CHUNK_BYTES } from '../mock-script.js';
import { DEFAULT_CHAT_REPLY } from '../openai/chat.js';
import { type MockSpeechOptions, mockSpeechPcm } from '../openai/speech.js';
import { wordPieces } from '../openai/text-pieces.js';
import { DEFAULT_TRANSCRIPT } from '../openai/transcription.js';
import type { PerCall } from '../per-call.js';
import { resolvePerCall } from '../per-call.js';
import { base64 } from '../sse.js';
import { checkKnownKeys, checkOneOf } from './endpoint-checks.js';
import type { SageMakerCallContext, SageMakerEndpoint, SageMakerReply, SageMakerScript } from './types.js';

const encoder = new TextEncoder();
const sse = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
const line = (value: unknown) => `${JSON.stringify(value)}\n`;

/** Chat payload formats the emulator can answer in (the codecs of the same names). */
export type SageMakerChatPayload = 'openai-chat' | 'tgi' | 'jsonlines';

const CHAT_PAYLOADS: readonly SageMakerChatPayload[] = ['openai-chat', 'tgi', 'jsonlines'];

/**
 * The reply of a chat container streaming `text` word by word (OpenAI's Chat Completions stream, as vLLM
 * serves it, for `openai-chat`; TGI's and LMI's de-facto formats for the others):
 * - `'openai-chat'`: SSE `chat.completion.chunk`s (a role chunk, one per word); closing: the
 *   finish chunk (`stop`), a usage chunk and `data: [DONE]`;
 * - `'tgi'`: SSE `{"token":{...},"generated_text":null,"details":null}` per word; closing: the
 *   last message with `generated_text` and `details.finish_reason` `eos_token`;
 * - `'jsonlines'`: `{"token":{"text":...}}` lines; no closing part (the stream just ends).
 *
 * @example
 * ```ts
 * sageMakerChatReply('jsonlines', 'Hi there').parts; // ['{"token":{"text":"Hi "}}\n', '{"token":{"text":"there"}}\n']
 * ```
 * @throws TypeError naming the argument when `payload` is not one of the formats (with the
 *   one most likely meant, e.g. `'openai'` -> `'openai-chat'`) or `text` is not a string.
 */
export function sageMakerChatReply(payload: SageMakerChatPayload, text: string): SageMakerReply {
  checkOneOf('sageMakerChatReply(payload, text)', 'payload', payload, CHAT_PAYLOADS, false);
  checkString('sageMakerChatReply(payload, text): text', text);
  const words = wordPieces(text);
  switch (payload) {
    case 'openai-chat': {
      const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
        id: 'chatcmpl-sagemaker',
        object: 'chat.completion.chunk',
        created: 1_700_000_000,
        model: 'sagemaker-model',
        choices: [{ index: 0, delta, finish_reason: finish }],
        usage: null,
      });
      return {
        contentType: 'text/event-stream',
        parts: [
          sse(chunk({ role: 'assistant', content: '' }, null)),
          ...words.map((w) => sse(chunk({ content: w }, null))),
        ],
        closing: [
          sse(chunk({}, 'stop')),
          sse({
            id: 'chatcmpl-sagemaker',
            object: 'chat.completion.chunk',
            choices: [],
            usage: { prompt_tokens: 10, completion_tokens: words.length, total_tokens: 10 + words.length },
          }),
          'data: [DONE]\n\n',
        ],
      };
    }
    case 'tgi':
      return {
        contentType: 'text/event-stream',
        parts: words.map((w, i) =>
          sse({
            index: i + 1,
            token: { id: i + 1, text: w, logprob: -0.1, special: false },
            generated_text: null,
            details: null,
          }),
        ),
        closing: [
          sse({
            index: words.length + 1,
            token: { id: 2, text: '</s>', logprob: -0.1, special: true },
            generated_text: text,
            details: { finish_reason: 'eos_token', generated_tokens: words.length + 1, seed: null },
          }),
        ],
      };
    case 'jsonlines':
      return { contentType: 'application/jsonlines', parts: words.map((w) => line({ token: { text: w } })) };
  }
}

/** Options of {@link sageMakerChatEndpoint}. */
export interface SageMakerChatEndpointOptions {
  /** Format of the reply. Default `'openai-chat'`. */
  payload?: SageMakerChatPayload | undefined;
  /** The model's reply, per call. Default `'This is a mock reply.'` */
  reply?: PerCall<string, SageMakerCallContext> | undefined;
  /**
   * Latency and faults of the endpoint, per call (`chunkBytes` also sizes TTS parts). Default: the emulator's
   * script.
   */
  script?: PerCall<SageMakerScript> | undefined;
}

/**
 * An emulated chat endpoint answering every call with {@link sageMakerChatReply}.
 *
 * @example
 * ```ts
 * const emulator = await startSageMakerEmulator({ endpoints: { llm: sageMakerChatEndpoint({ reply: 'Booked.' }) } });
 * ```
 * @throws TypeError naming the argument when `options` is not an object, has an unknown key,
 *   or its `payload` is not one of the formats (the message names the one most likely meant).
 */
export function sageMakerChatEndpoint(options: SageMakerChatEndpointOptions = {}): SageMakerEndpoint {
  checkOptionalObject(
    'sageMakerChatEndpoint(options?): options',
    'an object ({ payload?, reply?, script? })',
    options,
  );
  checkKnownKeys('sageMakerChatEndpoint(options?): options', options, ['payload', 'reply', 'script']);
  checkOneOf('sageMakerChatEndpoint(options?): options', 'payload', options.payload, CHAT_PAYLOADS, true);
  const payload = options.payload ?? 'openai-chat';
  return {
    reply: (context) =>
      sageMakerChatReply(payload, resolvePerCall(options.reply, context) ?? DEFAULT_CHAT_REPLY),
    ...(options.script !== undefined ? { script: options.script } : {}),
  };
}

/** TTS payload formats the emulator can answer in (the codecs of the same names). */
export type SageMakerTtsPayload = 'cartesia' | 'raw-pcm';

const TTS_PAYLOADS: readonly SageMakerTtsPayload[] = ['cartesia', 'raw-pcm'];

/** Options of {@link sageMakerTtsEndpoint}. */
export interface SageMakerTtsEndpointOptions {
  /**
   * Format of the reply: `'cartesia'` (Cartesia's SSE events, base64 audio) or `'raw-pcm'`
   * (raw PCM s16le bytes, `audio/pcm`), as the codecs of the same names read them.
   */
  payload: SageMakerTtsPayload;
  /** How text becomes audio (60 ms a character by default; `sampleRate` default: the request's, else 24000). */
  speech?: MockSpeechOptions | undefined;
  /**
   * Latency and faults of the endpoint, per call (`chunkBytes` also sizes TTS parts). Default: the emulator's
   * script.
   */
  script?: PerCall<SageMakerScript> | undefined;
}

/**
 * The text and sample rate of a TTS request body: Cartesia's `transcript` and
 * `output_format.sample_rate`, or the `raw-pcm` codec's `text` and `sample_rate`.
 */
function ttsRequest(json: unknown): {
  text: string;
  sampleRate: number | undefined;
  speed: number | undefined;
} {
  const body = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
  const format = (body.output_format ?? {}) as Record<string, unknown>;
  const config = (body.generation_config ?? {}) as Record<string, unknown>;
  const rate = format.sample_rate ?? body.sample_rate;
  const speed = config.speed ?? body.speed;
  return {
    text:
      typeof body.transcript === 'string' ? body.transcript : typeof body.text === 'string' ? body.text : '',
    sampleRate: typeof rate === 'number' ? rate : undefined,
    speed: typeof speed === 'number' ? speed : undefined,
  };
}

/**
 * An emulated TTS endpoint: the audio is `mockSpeechPcm(text)` (PCM s16le) at the request's
 * sample rate, in parts of `script.chunkBytes` bytes (default 4800):
 * - `'raw-pcm'`: the raw bytes as parts;
 * - `'cartesia'`: SSE `{"type":"chunk","data":"<base64>","done":false,"status_code":206}` per
 *   part, closing with `{"type":"done","done":true,"status_code":200}` (Cartesia's `/tts/sse` reference).
 *
 * @example
 * ```ts
 * const sonic = sageMakerTtsEndpoint({ payload: 'cartesia' });
 * ```
 * @throws TypeError naming the argument when `options` is not an object, has an unknown key,
 *   or its `payload` is missing or not one of the formats (the message names the one most
 *   likely meant, e.g. `'raw_pcm'` -> `'raw-pcm'`).
 */
export function sageMakerTtsEndpoint(options: SageMakerTtsEndpointOptions): SageMakerEndpoint {
  checkObject('sageMakerTtsEndpoint(options): options', 'an object ({ payload, speech?, script? })', options);
  checkKnownKeys('sageMakerTtsEndpoint(options): options', options, ['payload', 'speech', 'script']);
  checkOneOf('sageMakerTtsEndpoint(options): options', 'payload', options.payload, TTS_PAYLOADS, false);
  const scripts = options.script;
  return {
    reply: (context) => {
      const request = ttsRequest(context.json);
      const sampleRate = request.sampleRate ?? options.speech?.sampleRate ?? 24_000;
      const audio = mockSpeechPcm(request.text, {
        ...options.speech,
        sampleRate,
        ...(request.speed !== undefined ? { speed: request.speed } : {}),
      });
      const size = resolvePerCall(scripts, context)?.chunkBytes ?? DEFAULT_CHUNK_BYTES;
      const pieces: Uint8Array[] = [];
      for (let i = 0; i < audio.byteLength; i += size) pieces.push(audio.subarray(i, i + size));
      if (options.payload === 'raw-pcm') return { contentType: 'audio/pcm', parts: pieces };
      return {
        contentType: 'text/event-stream',
        parts: pieces.map((p) =>
          sse({ type: 'chunk', data: base64(p), done: false, status_code: 206, step_time: 1 }),
        ),
        closing: [sse({ type: 'done', done: true, status_code: 200 })],
      };
    },
    ...(scripts !== undefined ? { script: scripts } : {}),
  };
}

/** Options of {@link sageMakerSttEndpoint}. */
export interface SageMakerSttEndpointOptions {
  /** The transcript, per call. Default `'This is a mock transcript.'` */
  transcript?: PerCall<string, SageMakerCallContext> | undefined;
  /** Send a partial for each word before the final. Default false. */
  partials?: boolean | undefined;
  /**
   * Latency and faults of the endpoint, per call (`chunkBytes` also sizes TTS parts). Default: the emulator's
   * script.
   */
  script?: PerCall<SageMakerScript> | undefined;
}

/**
 * An emulated STT endpoint answering JSON lines: with `partials`, one
 * `{"type":"partial","text":<words so far>}` per word, then the final `{"text": transcript}`
 * (its closing part, left out by `endWithoutDone`)
 * (the shape of Whisper containers), read by the `'wav'` and `'raw-pcm'` STT codecs.
 * Over a bidirectional stream it answers while the audio flows: with `partials`, one partial
 * (one more word) after each non-empty input part, then the final once the input has ended.
 *
 * @example
 * ```ts
 * const whisper = sageMakerSttEndpoint({ transcript: 'Table for two.', partials: true });
 * ```
 * @throws TypeError naming the argument when `options` is not an object or has an unknown key.
 */
export function sageMakerSttEndpoint(options: SageMakerSttEndpointOptions = {}): SageMakerEndpoint {
  checkOptionalObject(
    'sageMakerSttEndpoint(options?): options',
    'an object ({ transcript?, partials?, script? })',
    options,
  );
  checkKnownKeys('sageMakerSttEndpoint(options?): options', options, ['transcript', 'partials', 'script']);
  return {
    reply: (context) => {
      const text = resolvePerCall(options.transcript, context) ?? DEFAULT_TRANSCRIPT;
      const parts: string[] = [];
      if (options.partials) {
        let sofar = '';
        for (const word of wordPieces(text)) {
          sofar += word;
          parts.push(line({ type: 'partial', text: sofar.trim() }));
        }
      }
      return { contentType: 'application/jsonlines', parts, closing: [line({ text })] };
    },
    async *duplex(input, context) {
      const text = resolvePerCall(options.transcript, context) ?? DEFAULT_TRANSCRIPT;
      const words = wordPieces(text);
      let heard = 0;
      for await (const part of input) {
        if (!options.partials || part.bytes.byteLength === 0 || heard >= words.length) continue;
        heard++;
        const partial = words.slice(0, heard).join('').trim();
        yield {
          bytes: encoder.encode(line({ type: 'partial', text: partial })),
          dataType: 'UTF8',
          completionState: 'PARTIAL',
        };
      }
      yield { bytes: encoder.encode(line({ text })), dataType: 'UTF8', completionState: 'COMPLETE' };
    },
    ...(options.script !== undefined ? { script: options.script } : {}),
  };
}
