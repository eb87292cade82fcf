import { createHttpEndpoint } from '../shared/http-endpoint.js';
import type { ProviderAdapter } from '../types.js';
import { createOpenAiChat } from './chat.js';
import { OPENAI_DEFAULT_TTS_MODEL, type OpenAiAdapterOptions, type OpenAiTtsOptions } from './options.js';
import { createOpenAiSpeech } from './speech.js';
import { createOpenAiTranscription } from './transcription.js';

/**
 * The adapter of one OpenAI or OpenAI-compatible provider (OpenAI, vLLM, Kokoro-FastAPI,
 * speaches, aggregators such as n1n.ai): `chat`, `tts` and `stt` exist only when their
 * option is present. Every request goes to `baseUrl` (plus `/chat/completions`,
 * `/audio/speech` or `/audio/transcriptions`) through `attempt.transport`, with
 * `attempt.signal` and `attempt.deadlines`. The adapter never retries, falls back, converts
 * audio or keeps scores. Kind `'openai'` sends `tts.model` {@link OPENAI_DEFAULT_TTS_MODEL} when
 * neither the request nor `tts.model` names one (OpenAI requires `model`); kind
 * `'openai-compatible'` then sends none. Throws ConfigError when `baseUrl` is not an http(s) URL
 * or holds credentials.
 */
export function createOpenAiAdapter(options: OpenAiAdapterOptions): ProviderAdapter {
  const endpoint = createHttpEndpoint(options.name, options.baseUrl, options.apiKey, options.headers);
  return {
    name: options.name,
    ...(options.chat ? { chat: createOpenAiChat(endpoint, options.kind, options.chat) } : {}),
    ...(options.tts ? { tts: createOpenAiSpeech(endpoint, speechOptions(options.kind, options.tts)) } : {}),
    ...(options.stt ? { stt: createOpenAiTranscription(endpoint, options.stt) } : {}),
  };
}

/** `tts` with kind `'openai'`'s default model when it names none (OpenAI requires `model`). */
function speechOptions(kind: OpenAiAdapterOptions['kind'], tts: OpenAiTtsOptions): OpenAiTtsOptions {
  return kind === 'openai' && tts.model === undefined ? { ...tts, model: OPENAI_DEFAULT_TTS_MODEL } : tts;
}
