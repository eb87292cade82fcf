import type { z } from 'zod';
import {
  headersSchema,
  httpUrlSchema,
  idMapSchema,
  languageSchema,
  nonEmptyStringSchema,
  rejectReservedHeaders,
  sampleRateSchema,
  sectionSchema,
} from '../../config-fields/fields.js';
import { caselessNamesPattern } from '../../config-fields/header-names.js';
import type { ResolveSecrets } from '../../config-fields/resolve-secrets.js';
import { secretSchema } from '../../config-fields/secret.js';
import { lazySchema } from '../../internal/zod.js';
import { OPENAI_DEFAULT_TTS_MODEL } from './options.js';
import { SSE_RESPONSE_FORMAT_JSON_SCHEMA, sseResponseFormatIssues } from './sse-response-format.js';
import { OPENAI_PCM_SAMPLE_RATE, OPENAI_TTS_WIRE_JSON_SCHEMA, openaiTtsWireIssues } from './wire-fixed.js';

/** Base URL of OpenAI's API, the default `baseUrl` of a provider of kind `openai`. */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

export { OPENAI_DEFAULT_TTS_MODEL } from './options.js';
export { OPENAI_PCM_SAMPLE_RATE } from './wire-fixed.js';

const chatSection = () =>
  sectionSchema('Chat completions through POST {baseUrl}/chat/completions with stream: true.', () => ({
    /**
     * Logical model name (what ChatRequest.model says) -> the model id this server expects, e.g.
     * { fast: "gpt-4o-mini" }.
     */
    models: idMapSchema(
      'Logical model name (what ChatRequest.model says) -> the model id this server expects, e.g. { fast: "gpt-4o-mini" }.',
    ),
  }));

/** The chat section of kind `openai-compatible`: the `openai` one plus `continueFinalMessage`. */
const compatibleChatSection = () =>
  sectionSchema('Chat completions through POST {baseUrl}/chat/completions with stream: true.', (z) => ({
    /**
     * Logical model name (what ChatRequest.model says) -> the model id this server expects, e.g.
     * { fast: "meta-llama/Llama-3.1-8B-Instruct" }.
     */
    models: idMapSchema(
      'Logical model name (what ChatRequest.model says) -> the model id this server expects, e.g. { fast: "meta-llama/Llama-3.1-8B-Instruct" }.',
    ),
    /**
     * True when the server continues a trailing assistant message sent with vLLM's
     * `continue_final_message: true` (vLLM, SGLang): a reply cut on another provider may then be
     * continued here (route midStream "continue"). Omitted: false, and such a reply is never
     * handed to this provider (a server that ignores the field answers anew, and the caller
     * would hear the start of the reply twice).
     */
    continueFinalMessage: z
      .boolean()
      .optional()
      .describe(
        'True when the server continues a trailing assistant message sent with vLLM\'s continue_final_message: true (vLLM, SGLang): a reply cut on another provider may then be continued here (route midStream "continue"). Omitted: false, and such a reply is never handed to this provider.',
      ),
  }));

/**
 * The tts section's `model` of kind `openai`: OpenAI requires `model` (PROTOCOLS.md 2.3), so it
 * defaults to {@link OPENAI_DEFAULT_TTS_MODEL}, as Cartesia's and ElevenLabs' `tts.model` default.
 */
const openaiTtsModel = () =>
  /** Model id sent as `model`, e.g. "gpt-4o-mini-tts" or "tts-1". Default "gpt-4o-mini-tts". */
  nonEmptyStringSchema(
    `Model id sent as \`model\`, e.g. "gpt-4o-mini-tts" or "tts-1". Default "${OPENAI_DEFAULT_TTS_MODEL}".`,
  ).default(OPENAI_DEFAULT_TTS_MODEL);

/** The tts section's `model` of kind `openai-compatible`: optional, a server may need none (Kokoro). */
const compatibleTtsModel = () =>
  /** Model id sent as `model`, e.g. "gpt-4o-mini-tts" or "kokoro". Omitted: not sent. */
  nonEmptyStringSchema(
    'Model id sent as `model`, e.g. "gpt-4o-mini-tts" or "kokoro". Omitted: not sent.',
  ).optional();

const ttsSection = <Model extends z.ZodType>(model: Model) =>
  sectionSchema('Text-to-speech through POST {baseUrl}/audio/speech.', (z) => ({
    model,
    /**
     * Logical voice name (what TtsRequest.voice says) -> the voice id this server expects, e.g.
     * { agent: "alloy" }.
     */
    voices: idMapSchema(
      'Logical voice name (what TtsRequest.voice says) -> the voice id this server expects, e.g. { agent: "alloy" }.',
    ),
    /**
     * response_format to ask for: "pcm" (raw s16le mono at sampleRate) or "wav" (read with a streaming WAV
     * reader; not with streamFormat "sse", which always asks for "pcm"). Default "pcm".
     */
    responseFormat: z
      .enum(['pcm', 'wav'])
      .default('pcm')
      .describe(
        'response_format to ask for: "pcm" (raw s16le mono at sampleRate) or "wav" (read with a streaming WAV reader; not with streamFormat "sse", which always asks for "pcm"). Default "pcm".',
      ),
    /**
     * stream_format to ask for: "audio" (raw bytes, chunked) or "sse" (base64 audio deltas; not on
     * tts-1/tts-1-hd). Default "audio".
     */
    streamFormat: z
      .enum(['audio', 'sse'])
      .default('audio')
      .describe(
        'stream_format to ask for: "audio" (raw bytes, chunked) or "sse" (base64 audio deltas; not on tts-1/tts-1-hd). Default "audio".',
      ),
    /**
     * Sample rate in Hz of the server's "pcm" output (a WAV header states its own). Default 24000, OpenAI's
     * rate; kind "openai" takes only 24000 (OpenAI's pcm is always 24 kHz).
     */
    sampleRate: sampleRateSchema(192_000)
      .default(OPENAI_PCM_SAMPLE_RATE)
      .describe(
        'Sample rate in Hz of the server\'s "pcm" output (a WAV header states its own). Default 24000, OpenAI\'s rate; kind "openai" takes only 24000 (OpenAI\'s pcm is always 24 kHz).',
      ),
  }));

const sttSection = () =>
  sectionSchema('Speech-to-text through POST {baseUrl}/audio/transcriptions.', (z) => ({
    /** Model id sent as `model`, e.g. "gpt-4o-mini-transcribe" or "whisper-large-v3". */
    model: nonEmptyStringSchema(
      'Model id sent as `model`, e.g. "gpt-4o-mini-transcribe" or "whisper-large-v3".',
    ),
    /**
     * True when the server accepts stream=true and streams transcript events; false to get one final
     * transcript. Default true.
     */
    streaming: z
      .boolean()
      .default(true)
      .describe(
        'True when the server accepts stream=true and streams transcript events; false to get one final transcript. Default true.',
      ),
    /** Default language of the audio (ISO-639-1, e.g. "en") when a request gives none. Omitted: auto. */
    language: languageSchema(
      'Default language of the audio (ISO-639-1, e.g. "en") when a request gives none. Omitted: auto.',
    ).optional(),
  }));

/**
 * Fields shared by both kinds that speak OpenAI's wire protocol (PROTOCOLS.md sections 2 and 6);
 * `chat` is the kind's own chat section.
 */
const openaiShape = <Chat extends z.ZodType, Tts extends z.ZodType>(chat: Chat, tts: Tts) => ({
  /**
   * Extra HTTP headers sent with every request to this provider (values may be { env: "NAME" }). Default
   * none.
   */
  headers: headersSchema(
    'Extra HTTP headers sent with every request to this provider (values may be { env: "NAME" }). Default none.',
  ).default({}),
  /**
   * Chat completions through POST {baseUrl}/chat/completions with `stream: true`. Omitted: this provider
   * serves no chat, and no chat route may name it.
   */
  chat: chat.optional(),
  /**
   * Text-to-speech through POST {baseUrl}/audio/speech. Omitted: this provider serves no text-to-speech, and
   * no tts route may name it.
   */
  tts: tts.optional(),
  /**
   * Speech-to-text through POST {baseUrl}/audio/transcriptions. Omitted: this provider serves no
   * speech-to-text, and no stt route may name it.
   */
  stt: sttSection().optional(),
});

function noDuplicateAuthorization(
  provider: { apiKey?: unknown; headers?: Record<string, unknown> | undefined },
  ctx: z.RefinementCtx,
): void {
  if (provider.apiKey === undefined) return;
  rejectReservedHeaders(
    provider,
    ctx,
    ['authorization'],
    'set either apiKey or an Authorization header, not both',
  );
}

/** {@link noDuplicateAuthorization} as JSON Schema, for the published config schema. */
const noDuplicateAuthorizationJson = () => ({
  if: { type: 'object', required: ['apiKey'] },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword.
  then: {
    type: 'object',
    properties: {
      headers: {
        type: 'object',
        propertyNames: { not: { type: 'string', pattern: caselessNamesPattern(['authorization']) } },
      },
    },
  },
});

/** Adds {@link openaiTtsWireIssues}: what kind `openai`'s `tts` asks for and OpenAI cannot deliver. */
function openaiWireDelivers(provider: { tts?: unknown }, ctx: z.RefinementCtx): void {
  for (const issue of openaiTtsWireIssues(provider.tts)) ctx.addIssue({ code: 'custom', ...issue });
}

/** Adds {@link sseResponseFormatIssues}: `tts.responseFormat` "wav" with `streamFormat` "sse" (both kinds). */
function sseTakesPcm(provider: { tts?: unknown }, ctx: z.RefinementCtx): void {
  for (const issue of sseResponseFormatIssues(provider.tts)) ctx.addIssue({ code: 'custom', ...issue });
}

/**
 * Schema of a provider of kind `openai`: OpenAI's own API. `apiKey` is required; `tts.model`
 * defaults to "gpt-4o-mini-tts" (OPENAI_DEFAULT_TTS_MODEL); `tts.sampleRate`
 * is 24000 only, and `tts.streamFormat` "sse" not with tts-1/tts-1-hd (openaiTtsWireIssues) nor
 * with `tts.responseFormat` "wav" (sseResponseFormatIssues).
 * Built on first call.
 */
export const openaiProviderSchema = lazySchema((z) =>
  z
    .strictObject({
      /** OpenAI's own API. */
      kind: z.literal('openai').describe("OpenAI's own API."),
      /** Base URL of the API, up to and including /v1. Default https://api.openai.com/v1. */
      baseUrl: httpUrlSchema(
        `Base URL of the API, up to and including /v1. Default ${OPENAI_BASE_URL}.`,
      ).default(OPENAI_BASE_URL),
      /**
       * API key sent as "Authorization: Bearer <key>": a string, or { env: "OPENAI_API_KEY" } to read it from
       * the environment. Required.
       */
      apiKey: secretSchema(
        'API key sent as "Authorization: Bearer <key>": a string, or { env: "OPENAI_API_KEY" } to read it from the environment. Required.',
      ),
      ...openaiShape(chatSection(), ttsSection(openaiTtsModel())),
    })
    .superRefine(noDuplicateAuthorization, { when: () => true })
    .superRefine(openaiWireDelivers, { when: () => true })
    .superRefine(sseTakesPcm, { when: () => true })
    // The three refinements, for the JSON Schema.
    .meta({
      allOf: [noDuplicateAuthorizationJson(), OPENAI_TTS_WIRE_JSON_SCHEMA, SSE_RESPONSE_FORMAT_JSON_SCHEMA],
    })
    .describe('OpenAI (api.openai.com).'),
);

/**
 * Schema of a provider of kind `openai-compatible` (built on first call): any server that copies OpenAI's API (vLLM and
 * speech servers such as Kokoro-FastAPI or speaches on EC2, aggregators). `baseUrl` is
 * required; `apiKey` is optional (self-hosted servers often have none); `tts.streamFormat` "sse"
 * not with `tts.responseFormat` "wav" (sseResponseFormatIssues).
 */
export const openaiCompatibleProviderSchema = lazySchema((z) =>
  z
    .strictObject({
      /** A server that speaks OpenAI's API: vLLM, Kokoro-FastAPI, speaches, aggregators. */
      kind: z
        .literal('openai-compatible')
        .describe("A server that speaks OpenAI's API: vLLM, Kokoro-FastAPI, speaches, aggregators."),
      /**
       * Base URL of the server's OpenAI-style API, usually ending in /v1, e.g. http://10.0.0.5:8000/v1.
       * Required.
       */
      baseUrl: httpUrlSchema(
        "Base URL of the server's OpenAI-style API, usually ending in /v1, e.g. http://10.0.0.5:8000/v1. Required.",
      ),
      /**
       * API key sent as "Authorization: Bearer <key>": a string, or { env: "NAME" }. Omitted: no
       * Authorization header.
       */
      apiKey: secretSchema(
        'API key sent as "Authorization: Bearer <key>": a string, or { env: "NAME" }. Omitted: no Authorization header.',
      ).optional(),
      ...openaiShape(compatibleChatSection(), ttsSection(compatibleTtsModel())),
    })
    .superRefine(noDuplicateAuthorization, { when: () => true })
    .superRefine(sseTakesPcm, { when: () => true })
    // The two refinements, for the JSON Schema.
    .meta({ allOf: [noDuplicateAuthorizationJson(), SSE_RESPONSE_FORMAT_JSON_SCHEMA] })
    .describe('A self-hosted or third-party server with an OpenAI-compatible API.'),
);

/**
 * A resolved provider that speaks OpenAI's wire protocol (kinds `openai`, `openai-compatible`):
 * defaults applied (`baseUrl` and `tts.model` of kind `openai`, `tts.responseFormat` `'pcm'`, `tts.sampleRate`
 * 24000 Hz, `stt.streaming` true, `headers` `{}`) and every secret a plain string.
 */
export type ResolvedOpenAIProviderConfig = ResolveSecrets<
  z.output<ReturnType<typeof openaiProviderSchema | typeof openaiCompatibleProviderSchema>>
>;
