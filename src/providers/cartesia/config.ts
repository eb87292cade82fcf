import type { z } from 'zod';
import {
  headersSchema,
  httpUrlSchema,
  idMapSchema,
  languageSchema,
  MAX_TIMER_MS,
  msRangeSchema,
  nonEmptyStringSchema,
  sectionSchema,
} from '../../config-fields/fields.js';
import type { ResolveSecrets } from '../../config-fields/resolve-secrets.js';
import { secretSchema } from '../../config-fields/secret.js';
import { lazySchema } from '../../internal/zod.js';

/** Base URL of Cartesia's API, the default `baseUrl` of kind `cartesia` (PROTOCOLS.md 1.1, CJS `src/client.ts`). */
export const CARTESIA_BASE_URL = 'https://api.cartesia.ai';

/**
 * Default `Cartesia-Version` header value: `2025-11-04`, the only value the OpenAPI spec's enum
 * lists (PROTOCOLS.md 1.1, COAS `CartesiaVersionHeader`). Newer dated versions exist (the docs
 * show `2026-03-01`, cartesia-js 4.2 sends `2026-08-14`); set `version` to use one.
 */
export const CARTESIA_DEFAULT_VERSION = '2025-11-04';

/** Default TTS model id sent as `model_id`. */
export const CARTESIA_DEFAULT_TTS_MODEL = 'sonic-3';

/** Default STT model id sent as the `model` query parameter. */
export const CARTESIA_DEFAULT_STT_MODEL = 'ink-whisper';

/** Default time an idle TTS WebSocket stays open for the next call, in ms. */
export const CARTESIA_DEFAULT_KEEP_WARM_MS = 30_000;

const ttsSection = () =>
  sectionSchema('Text-to-speech through Cartesia /tts/bytes, /tts/sse or /tts/websocket.', (z) => ({
    /** Model id sent as model_id, e.g. "sonic-3" or "sonic-3.5". Default "sonic-3". */
    model: nonEmptyStringSchema(
      `Model id sent as model_id, e.g. "sonic-3" or "sonic-3.5". Default "${CARTESIA_DEFAULT_TTS_MODEL}".`,
    ).default(CARTESIA_DEFAULT_TTS_MODEL),
    /**
     * Logical voice name (what TtsRequest.voice says) -> Cartesia voice id (sent as voice: {mode: "id", id}).
     */
    voices: idMapSchema(
      'Logical voice name (what TtsRequest.voice says) -> Cartesia voice id (sent as voice: {mode: "id", id}).',
    ),
    /**
     * Endpoint to synthesize with: "bytes" (POST /tts/bytes, raw PCM body), "sse" (POST /tts/sse, base64
     * chunks and word timestamps), "websocket" (/tts/websocket on a warm socket, streaming text, word
     * timestamps), or "auto": websocket when the text arrives as a stream, bytes otherwise. Default "auto".
     */
    transport: z
      .enum(['bytes', 'sse', 'websocket', 'auto'])
      .default('auto')
      .describe(
        'Endpoint to synthesize with: "bytes" (POST /tts/bytes, raw PCM body), "sse" (POST /tts/sse, base64 chunks and word timestamps), "websocket" (/tts/websocket on a warm socket, streaming text, word timestamps), or "auto": websocket when the text arrives as a stream, bytes otherwise. Default "auto".',
      ),
    /**
     * Language sent as `language` when a request gives none, e.g. "en". Omitted: not sent (Cartesia: the
     * voice's).
     */
    language: languageSchema(
      'Language sent as `language` when a request gives none, e.g. "en". Omitted: not sent (Cartesia: the voice\'s).',
    ).optional(),
    /** Ask for word timestamps (add_timestamps) on the sse and websocket endpoints. Default true. */
    addTimestamps: z
      .boolean()
      .default(true)
      .describe('Ask for word timestamps (add_timestamps) on the sse and websocket endpoints. Default true.'),
    /**
     * WebSocket only: max_buffer_delay_ms, how long Cartesia may buffer streamed text before it starts
     * speaking (0..5000 ms). Omitted: not sent (Cartesia: 3000).
     */
    maxBufferDelayMs: msRangeSchema({ min: 0, max: 5_000 })
      .optional()
      .describe(
        'WebSocket only: max_buffer_delay_ms, how long Cartesia may buffer streamed text before it starts speaking (0..5000 ms). Omitted: not sent (Cartesia: 3000).',
      ),
    /**
     * WebSocket only: how long an idle TTS socket stays open for the next call, in ms; 0 closes it after each
     * call. Default 30000.
     */
    keepWarmMs: msRangeSchema({ min: 0, max: MAX_TIMER_MS })
      .default(CARTESIA_DEFAULT_KEEP_WARM_MS)
      .describe(
        `WebSocket only: how long an idle TTS socket stays open for the next call, in ms; 0 closes it after each call. Default ${CARTESIA_DEFAULT_KEEP_WARM_MS}.`,
      ),
  }));

const sttSection = () =>
  sectionSchema('Speech-to-text through the Cartesia /stt/websocket (manual finalize).', () => ({
    /** Model id sent as the model query parameter, e.g. "ink-whisper" or "ink-2". Default "ink-whisper". */
    model: nonEmptyStringSchema(
      `Model id sent as the model query parameter, e.g. "ink-whisper" or "ink-2". Default "${CARTESIA_DEFAULT_STT_MODEL}".`,
    ).default(CARTESIA_DEFAULT_STT_MODEL),
    /**
     * Language of the audio (ISO-639-1, e.g. "en") when a request gives none. Omitted: not sent (Cartesia:
     * "en").
     */
    language: languageSchema(
      'Language of the audio (ISO-639-1, e.g. "en") when a request gives none. Omitted: not sent (Cartesia: "en").',
    ).optional(),
  }));

/**
 * Schema of a provider of kind `cartesia` (built on first call): Cartesia's API for TTS
 * (Sonic) and STT (Ink). Sources: PROTOCOLS.md section 1.
 */
export const cartesiaProviderSchema = lazySchema((z) =>
  z
    .strictObject({
      /** Cartesia (api.cartesia.ai): Sonic TTS and Ink STT. */
      kind: z.literal('cartesia').describe('Cartesia (api.cartesia.ai): Sonic TTS and Ink STT.'),
      /**
       * Base URL of the API, e.g. https://api.cartesia.ai; WebSocket URLs are derived from it (https -> wss,
       * http -> ws). Default https://api.cartesia.ai.
       */
      baseUrl: httpUrlSchema(
        `Base URL of the API, e.g. ${CARTESIA_BASE_URL}; WebSocket URLs are derived from it (https -> wss, http -> ws). Default ${CARTESIA_BASE_URL}.`,
      ).default(CARTESIA_BASE_URL),
      /**
       * API key, sent as "Authorization: Bearer <key>" and "X-API-Key: <key>": a string, or
       * { env: "CARTESIA_API_KEY" }. Required.
       */
      apiKey: secretSchema(
        'API key, sent as "Authorization: Bearer <key>" and "X-API-Key: <key>": a string, or { env: "CARTESIA_API_KEY" }. Required.',
      ),
      /** Value of the Cartesia-Version header. Default "2025-11-04". */
      version: z
        .string()
        .regex(/^[A-Za-z0-9._-]+$/, 'must be a version such as "2025-11-04"')
        .default(CARTESIA_DEFAULT_VERSION)
        .describe(`Value of the Cartesia-Version header. Default "${CARTESIA_DEFAULT_VERSION}".`),
      /**
       * Extra HTTP headers sent with every request and WebSocket handshake to this provider (values may be
       * { env: "NAME" }); they never replace Authorization, X-API-Key or Cartesia-Version. Default none.
       */
      headers: headersSchema(
        'Extra HTTP headers sent with every request and WebSocket handshake to this provider (values may be { env: "NAME" }); they never replace Authorization, X-API-Key or Cartesia-Version. Default none.',
      ).default({}),
      /**
       * Text-to-speech through Cartesia /tts/bytes, /tts/sse or /tts/websocket. Omitted: this provider serves
       * no text-to-speech, and no tts route may name it.
       */
      tts: ttsSection().optional(),
      /**
       * Speech-to-text through the Cartesia /stt/websocket (manual finalize). Omitted: this provider serves
       * no speech-to-text, and no stt route may name it.
       */
      stt: sttSection().optional(),
    })
    .describe('Cartesia.'),
);

/**
 * A provider of kind `cartesia` after parsing: defaults applied and every secret read (a plain
 * string).
 */
export type ResolvedCartesiaConfig = ResolveSecrets<z.output<ReturnType<typeof cartesiaProviderSchema>>>;
