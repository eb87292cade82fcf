import type { z } from 'zod';
import {
  httpUrlSchema,
  idMapSchema,
  languageSchema,
  MAX_TIMER_MS,
  msRangeSchema,
  msSchema,
  nonEmptyStringSchema,
  sectionSchema,
} from '../../config-fields/fields.js';
import type { ResolveSecrets } from '../../config-fields/resolve-secrets.js';
import { secretSchema } from '../../config-fields/secret.js';
import { lazySchema } from '../../internal/zod.js';
import { DEFAULT_KEEP_ALIVE_MS } from './options.js';

/**
 * Base URL of Deepgram's API, the default `baseUrl` of a provider of kind `deepgram`
 * (PROTOCOLS.md 3.1, source DGJS `src/environments.ts`). The WebSocket host is derived from
 * it: `https:` becomes `wss:`, `http:` becomes `ws:`.
 */
export const DEEPGRAM_BASE_URL = 'https://api.deepgram.com';

/** Deepgram's speech model when `stt.model` is not set. */
export const DEEPGRAM_DEFAULT_STT_MODEL = 'nova-3';

/**
 * Default interval of `{"type":"KeepAlive"}` messages while the caller sends no audio, in ms:
 * the adapter's own default (see DEFAULT_KEEP_ALIVE_MS in options.ts for why 2000 ms).
 */
export const DEEPGRAM_KEEP_ALIVE_MS = DEFAULT_KEEP_ALIVE_MS;

const sttSection = () =>
  sectionSchema('Live speech-to-text over the /v1/listen WebSocket.', (z) => ({
    /** Model sent as the `model` query parameter, e.g. "nova-3". Default "nova-3". */
    model: nonEmptyStringSchema(
      `Model sent as the \`model\` query parameter, e.g. "nova-3". Default "${DEEPGRAM_DEFAULT_STT_MODEL}".`,
    ).default(DEEPGRAM_DEFAULT_STT_MODEL),
    /**
     * Default language sent as `language` (BCP-47, e.g. "en-US", or "multi") when a request gives none.
     * Omitted: Deepgram's default.
     */
    language: languageSchema(
      'Default language sent as `language` (BCP-47, e.g. "en-US", or "multi") when a request gives none. Omitted: Deepgram\'s default.',
      { multilingual: true },
    ).optional(),
    /**
     * Silence in ms that ends an utterance (`endpointing`; sets speech_final), or false to turn endpointing
     * off. Omitted: Deepgram's default (10 ms).
     */
    endpointingMs: z
      .union([msRangeSchema({ min: 0, max: MAX_TIMER_MS }), z.literal(false)])
      .optional()
      .describe(
        "Silence in ms that ends an utterance (`endpointing`; sets speech_final), or false to turn endpointing off. Omitted: Deepgram's default (10 ms).",
      ),
    /**
     * Gap in ms after the last final word before Deepgram sends UtteranceEnd (`utterance_end_ms`; turns
     * interim results on). Omitted: not sent.
     */
    utteranceEndMs: msSchema(
      'Gap in ms after the last final word before Deepgram sends UtteranceEnd (`utterance_end_ms`; turns interim results on). Omitted: not sent.',
    ).optional(),
    /**
     * How long the caller's audio may pause, in ms, before a {"type":"KeepAlive"} text message is sent (and
     * again every interval while the pause lasts); 0 turns keep-alive off. Default 2000 (Deepgram closes
     * after 10 s without audio or text: NET-0001).
     */
    keepAliveIntervalMs: msRangeSchema({
      min: 0,
      max: 9_000,
      minMessage: 'must be >= 0 ms (0 turns keep-alive off)',
      maxMessage: 'must be <= 9000 ms: Deepgram closes a socket after 10 s without audio or text',
    })
      .default(DEEPGRAM_KEEP_ALIVE_MS)
      .describe(
        `How long the caller's audio may pause, in ms, before a {"type":"KeepAlive"} text message is sent (and again every interval while the pause lasts); 0 turns keep-alive off. Default ${DEEPGRAM_KEEP_ALIVE_MS} (Deepgram closes after 10 s without audio or text: NET-0001).`,
      ),
    /** Sends `smart_format=true|false` (punctuation, numerals, casing). Omitted: not sent. */
    smartFormat: z
      .boolean()
      .optional()
      .describe('Sends `smart_format=true|false` (punctuation, numerals, casing). Omitted: not sent.'),
    /**
     * Where the key goes on the /v1/listen handshake: "header" (Authorization: Token <key>), "subprotocol"
     * (Sec-WebSocket-Protocol: token, <key>, the form browsers use), or "auto": the header when the WebSocket
     * transport can send handshake headers (voxroute's default undici transport), else the subprotocol (a
     * standard WebSocket, e.g. the global one msw intercepts). Default "auto".
     */
    auth: z
      .enum(['auto', 'header', 'subprotocol'])
      .default('auto')
      .describe(
        'Where the key goes on the /v1/listen handshake: "header" (Authorization: Token <key>), "subprotocol" (Sec-WebSocket-Protocol: token, <key>, the form browsers use), or "auto": the header when the WebSocket transport can send handshake headers (voxroute\'s default undici transport), else the subprotocol (a standard WebSocket, e.g. the global one msw intercepts). Default "auto".',
      ),
  }));

const ttsSection = () =>
  sectionSchema('Text-to-speech through POST {baseUrl}/v1/speak (raw audio, container=none).', () => ({
    /**
     * Not sent: on Deepgram the voice id is the model (see voices). Accepted so every kind has the same tts
     * fields.
     */
    model: nonEmptyStringSchema(
      'Not sent: on Deepgram the voice id is the model (see voices). Accepted so every kind has the same tts fields.',
    ).optional(),
    /**
     * Logical voice name (what TtsRequest.voice says) -> Deepgram voice model, sent as `model`, e.g.
     * { agent: "aura-2-thalia-en" }.
     */
    voices: idMapSchema(
      'Logical voice name (what TtsRequest.voice says) -> Deepgram voice model, sent as `model`, e.g. { agent: "aura-2-thalia-en" }.',
    ),
  }));

/**
 * Schema of a provider of kind `deepgram` (PROTOCOLS.md section 3), built on first call:
 * `apiKey` (required, sent as `Authorization: Token <key>`), `baseUrl` (default
 * {@link DEEPGRAM_BASE_URL}), and the `stt` and `tts` sections. Field docs: docs/config.md.
 */
export const deepgramProviderSchema = lazySchema((z) =>
  z
    .strictObject({
      /** Deepgram: live STT over WebSocket, TTS over REST. */
      kind: z.literal('deepgram').describe('Deepgram: live STT over WebSocket, TTS over REST.'),
      /**
       * Base URL of the API, without /v1. Default https://api.deepgram.com; the WebSocket URL uses the same
       * host (https -> wss, http -> ws).
       */
      baseUrl: httpUrlSchema(
        `Base URL of the API, without /v1. Default ${DEEPGRAM_BASE_URL}; the WebSocket URL uses the same host (https -> wss, http -> ws).`,
      ).default(DEEPGRAM_BASE_URL),
      /** API key sent as "Authorization: Token <key>": a string, or { env: "DEEPGRAM_API_KEY" }. Required. */
      apiKey: secretSchema(
        'API key sent as "Authorization: Token <key>": a string, or { env: "DEEPGRAM_API_KEY" }. Required.',
      ),
      /**
       * Live speech-to-text over the /v1/listen WebSocket. Omitted: this provider serves no speech-to-text,
       * and no stt route may name it.
       */
      stt: sttSection().optional(),
      /**
       * Text-to-speech through POST {baseUrl}/v1/speak (raw audio, `container=none`). Omitted: this provider
       * serves no text-to-speech, and no tts route may name it.
       */
      tts: ttsSection().optional(),
    })
    .describe('Deepgram (api.deepgram.com).'),
);

/**
 * A provider of kind `deepgram` after parsing: defaults applied and every secret read (a plain
 * string).
 */
export type ResolvedDeepgramConfig = ResolveSecrets<z.output<ReturnType<typeof deepgramProviderSchema>>>;
