/**
 * Options of the TTS capability of an OpenAI-compatible provider (`POST {baseUrl}/audio/speech`).
 * - `model`: the provider's model id sent when the request names none (e.g. `'tts-1'`, `'kokoro'`).
 *   When neither gives one: kind `'openai'` sends {@link OPENAI_DEFAULT_TTS_MODEL} (OpenAI requires
 *   `model`); kind `'openai-compatible'` leaves it out of the body (Kokoro-FastAPI then uses
 *   `kokoro`).
 * - `responseFormat`: `'pcm'` (raw PCM s16le, no header; OpenAI's is 24 kHz mono, PROTOCOLS.md
 *   §2.3) or `'wav'` (the format is then read from the WAV header of the response).
 * - `streamFormat`: `'audio'` (the response body is the audio itself) or `'sse'` (server-sent
 *   `speech.audio.delta` events carrying base64 PCM s16le; PROTOCOLS.md §2.3, §6.3). In `'sse'`
 *   mode `response_format: 'pcm'` is always sent, whatever `responseFormat` says.
 * - `sampleRate`: sample rate in Hz of the server's raw PCM (`pcm` and `sse`). Default: 24000.
 */
export interface OpenAiTtsOptions {
  model?: string;
  responseFormat: 'pcm' | 'wav';
  streamFormat: 'audio' | 'sse';
  sampleRate?: number;
}

/**
 * Options of the STT capability (`POST {baseUrl}/audio/transcriptions`).
 * - `model`: the provider's model id sent when the request names none (e.g. `'whisper-1'`,
 *   `'gpt-4o-transcribe'`, `'Systran/faster-whisper-small'`).
 * - `streaming`: send `stream=true` and read the server-sent transcript events (OpenAI,
 *   speaches and vLLM dialects); a plain JSON answer is still accepted.
 */
export interface OpenAiSttOptions {
  model: string;
  streaming: boolean;
}

/**
 * Options of the chat capability (`POST {baseUrl}/chat/completions`).
 * - `continueFinalMessage` (kind `'openai-compatible'` only; default false): the server
 *   continues a trailing assistant message when the body says `continue_final_message: true`
 *   and `add_generation_prompt: false` (vLLM's chat request fields, `vllm/entrypoints/openai/
 *   protocol.py`; SGLang takes the same), so a reply cut on another provider may be continued
 *   here. OpenAI's own API has no such field and answers such a message with a new reply.
 */
export interface OpenAiChatOptions {
  continueFinalMessage?: boolean;
}

/**
 * Options of {@link createOpenAiAdapter}.
 * - `name`: the provider's name in the config (errors and attempts carry it).
 * - `kind`: `'openai'` for api.openai.com, `'openai-compatible'` for servers that copy its API
 *   (vLLM, Kokoro-FastAPI, speaches, aggregators). It decides the token-limit field of chat.
 * - `baseUrl`: the API root including its version path, e.g. `'https://api.openai.com/v1'` or
 *   `'http://10.0.0.5:8000/v1'`; a trailing slash is ignored, a query string is kept.
 * - `apiKey`: sent as `Authorization: Bearer <apiKey>` when set, and only to `baseUrl`'s origin.
 * - `headers`: extra request headers (e.g. an aggregator's routing header). They never override
 *   the `Authorization` header built from `apiKey`, nor the content type of a request.
 * - `chat`, `tts`, `stt`: only the capabilities whose option is present are created.
 */
export interface OpenAiAdapterOptions {
  name: string;
  kind: 'openai' | 'openai-compatible';
  baseUrl: string;
  apiKey?: string;
  headers?: Record<string, string>;
  chat?: OpenAiChatOptions;
  tts?: OpenAiTtsOptions;
  stt?: OpenAiSttOptions;
}

/**
 * The `model` kind `'openai'` sends to `/audio/speech` when neither the request nor the config
 * names one: `gpt-4o-mini-tts`. `model` is a required field of OpenAI's speech request, and of the
 * models it lists (`tts-1`, `tts-1-hd`, `gpt-4o-mini-tts` and dated snapshots) this is the one
 * that serves both `stream_format`s: "sse is not supported on tts-1/tts-1-hd" (OpenAI's
 * `CreateSpeechRequest`, openai-openapi @ f85dbe2; PROTOCOLS.md 2.3).
 */
export const OPENAI_DEFAULT_TTS_MODEL = 'gpt-4o-mini-tts';

/** Default sample rate in Hz of raw PCM from `/audio/speech` (OpenAI and Kokoro: 24 kHz). */
export const DEFAULT_TTS_SAMPLE_RATE = 24_000;
