import type { z } from 'zod';
import {
  httpUrlSchema,
  idMapSchema,
  msSchema,
  nonEmptyStringSchema,
  sectionSchema,
} from '../../config-fields/fields.js';
import type { ResolveSecrets } from '../../config-fields/resolve-secrets.js';
import { secretSchema } from '../../config-fields/secret.js';
import { lazySchema, zod } from '../../internal/zod.js';

/** Host of ElevenLabs' API, the default `baseUrl` of a provider of kind `elevenlabs` (PROTOCOLS.md 4.1, ELJS). */
export const ELEVENLABS_BASE_URL = 'https://api.elevenlabs.io';

/**
 * Default `tts.model`: `eleven_flash_v2_5`, ElevenLabs' low-latency model (the API's own
 * default, `eleven_multilingual_v2`, is slower to first audio).
 */
export const ELEVENLABS_DEFAULT_MODEL = 'eleven_flash_v2_5';

/** Default `tts.keepAliveIntervalMs`: 10,000 ms, half of the server's 20 s inactivity window (PROTOCOLS.md 4.3, EL-help). */
export const ELEVENLABS_KEEP_ALIVE_MS = 10_000;

const unit = (name: string) =>
  zod().number().min(0, 'must be >= 0').max(1, 'must be <= 1').optional().describe(`${name}, 0..1.`);

const voiceSettingsSchema = () =>
  sectionSchema(
    'Voice settings sent as voice_settings (snake_case on the wire). Omitted fields: the voice’s stored settings.',
    (z) => ({
      /** Voice stability (voice_settings.stability), 0..1. Omitted: the voice's. */
      stability: unit('Voice stability (voice_settings.stability)'),
      /** Similarity to the original voice (voice_settings.similarity_boost), 0..1. Omitted: the voice's. */
      similarityBoost: unit('Similarity to the original voice (voice_settings.similarity_boost)'),
      /** Style exaggeration, V2+ models (voice_settings.style), 0..1. Omitted: the voice's. */
      style: unit('Style exaggeration, V2+ models (voice_settings.style)'),
      /** Speaker boost, V2+ models (voice_settings.use_speaker_boost). */
      useSpeakerBoost: z
        .boolean()
        .optional()
        .describe('Speaker boost, V2+ models (voice_settings.use_speaker_boost).'),
      /**
       * Speaking rate, 0.7..1.2 (voice_settings.speed); a request's own speed replaces it. Omitted: the
       * voice's.
       */
      speed: z
        .number()
        .min(0.7, 'must be >= 0.7')
        .max(1.2, 'must be <= 1.2')
        .optional()
        .describe(
          "Speaking rate, 0.7..1.2 (voice_settings.speed); a request's own speed replaces it. Omitted: the voice's.",
        ),
    }),
  );

const ttsSection = () =>
  sectionSchema('Text-to-speech through the HTTP stream endpoint or the stream-input WebSocket.', (z) => ({
    /** Model id sent as model_id, e.g. "eleven_flash_v2_5". Default "eleven_flash_v2_5". */
    model: nonEmptyStringSchema(
      `Model id sent as model_id, e.g. "eleven_flash_v2_5". Default "${ELEVENLABS_DEFAULT_MODEL}".`,
    ).default(ELEVENLABS_DEFAULT_MODEL),
    /**
     * Logical voice name (what TtsRequest.voice says) -> ElevenLabs voice id, e.g.
     * { agent: "21m00Tcm4TlvDq8ikWAM" }.
     */
    voices: idMapSchema(
      'Logical voice name (what TtsRequest.voice says) -> ElevenLabs voice id, e.g. { agent: "21m00Tcm4TlvDq8ikWAM" }.',
    ),
    /**
     * "http": POST /v1/text-to-speech/{voice}/stream; "websocket": the stream-input WebSocket; "auto": the
     * WebSocket when the text arrives as a stream, else HTTP. Default "auto".
     */
    transport: z
      .enum(['http', 'websocket', 'auto'])
      .default('auto')
      .describe(
        '"http": POST /v1/text-to-speech/{voice}/stream; "websocket": the stream-input WebSocket; "auto": the WebSocket when the text arrives as a stream, else HTTP. Default "auto".',
      ),
    /**
     * optimize_streaming_latency query parameter of the HTTP stream, 0 (none) .. 4 (most; deprecated by
     * ElevenLabs). Omitted: not sent.
     */
    optimizeStreamingLatency: z
      .number()
      .int('must be a whole number')
      .min(0, 'must be 0..4')
      .max(4, 'must be 0..4')
      .optional()
      .describe(
        'optimize_streaming_latency query parameter of the HTTP stream, 0 (none) .. 4 (most; deprecated by ElevenLabs). Omitted: not sent.',
      ),
    /**
     * Voice settings sent as voice_settings: `stability`, `similarityBoost`, `style` (each 0..1),
     * `useSpeakerBoost`, `speed` (0.7..1.2). Omitted fields: the voice's stored settings.
     */
    voiceSettings: voiceSettingsSchema().optional(),
    /**
     * WebSocket generation_config.chunk_length_schedule: characters buffered before each generation, each
     * 50..500. Omitted: the server default [120, 160, 250, 290].
     */
    chunkLengthSchedule: z
      .array(
        z
          .number()
          .int('must be a whole number of characters')
          .min(50, 'must be >= 50')
          .max(500, 'must be <= 500'),
      )
      .min(1, 'must have at least one entry')
      .optional()
      .describe(
        'WebSocket generation_config.chunk_length_schedule: characters buffered before each generation, each 50..500. Omitted: the server default [120, 160, 250, 290].',
      ),
    /**
     * WebSocket: send a keep-alive " " after this many ms without sending text, so the server's inactivity
     * timeout (20 s) does not close the socket while the text stream pauses. Default 10000.
     */
    keepAliveIntervalMs: msSchema(
      `WebSocket: send a keep-alive " " after this many ms without sending text, so the server's inactivity timeout (20 s) does not close the socket while the text stream pauses. Default ${ELEVENLABS_KEEP_ALIVE_MS}.`,
    ).default(ELEVENLABS_KEEP_ALIVE_MS),
  }));

/**
 * Schema of a provider of kind `elevenlabs` (built on first call): ElevenLabs' API, TTS only.
 * `apiKey` is required and sent as `xi-api-key` (PROTOCOLS.md 4.1); `baseUrl` defaults to
 * {@link ELEVENLABS_BASE_URL} and the WebSocket URL is derived from it (`https` -> `wss`,
 * `http` -> `ws`).
 */
export const elevenlabsProviderSchema = lazySchema((z) =>
  z
    .strictObject({
      /** ElevenLabs (api.elevenlabs.io). */
      kind: z.literal('elevenlabs').describe('ElevenLabs (api.elevenlabs.io).'),
      /**
       * Origin of the API (no /v1), e.g. https://api.elevenlabs.io or a data-residency host; the WebSocket
       * URL is derived from it. Default https://api.elevenlabs.io.
       */
      baseUrl: httpUrlSchema(
        `Origin of the API (no /v1), e.g. ${ELEVENLABS_BASE_URL} or a data-residency host; the WebSocket URL is derived from it. Default ${ELEVENLABS_BASE_URL}.`,
      ).default(ELEVENLABS_BASE_URL),
      /**
       * API key sent as the xi-api-key header (and in the first WebSocket message): a string, or
       * { env: "ELEVENLABS_API_KEY" }. Required.
       */
      apiKey: secretSchema(
        'API key sent as the xi-api-key header (and in the first WebSocket message): a string, or { env: "ELEVENLABS_API_KEY" }. Required.',
      ),
      /**
       * Text-to-speech through the HTTP stream endpoint or the stream-input WebSocket. Omitted: this provider
       * serves no text-to-speech, and no tts route may name it.
       */
      tts: ttsSection().optional(),
    })
    .describe('ElevenLabs text-to-speech.'),
);

/**
 * A provider of kind `elevenlabs` after parsing: defaults applied and every secret read (a plain
 * string).
 */
export type ResolvedElevenLabsConfig = ResolveSecrets<z.output<ReturnType<typeof elevenlabsProviderSchema>>>;
