import type { z } from 'zod';
import { lazySchema } from '../../internal/zod.js';

/*
 * Wire shapes of Cartesia's API, as zod schemas (server -> client) and TypeScript types
 * (client -> server). Objects are loose: unknown fields are kept and ignored, and fields we
 * do not read are not declared. Source: PROTOCOLS.md section 1 (CJS `src/resources/tts.ts`,
 * `src/resources/stt/*`, COAS, CDOC-err).
 *
 * Each schema is a function that builds it on its first call and returns the same object
 * afterwards (`lazy`, with zod from src/internal/zod.ts), so that importing voxroute does not
 * load zod; call it where the message is parsed, e.g. `parseWire(xSchema(), ...)`.
 */

/** `output_format` with `container: 'raw'` (PROTOCOLS.md 1.2): the only container of sse and websocket. */
export interface WireRawOutputFormat {
  container: 'raw';
  encoding: 'pcm_s16le' | 'pcm_f32le' | 'pcm_mulaw' | 'pcm_alaw';
  /** Hz: 8000, 16000, 22050, 24000, 44100 or 48000. */
  sample_rate: number;
}

/** The fields shared by the bodies of `/tts/bytes`, `/tts/sse` and a websocket generation request. */
export interface WireTtsBody {
  model_id: string;
  transcript: string;
  voice: { mode: 'id'; id: string };
  output_format: WireRawOutputFormat;
  language?: string;
  generation_config?: { speed?: number };
  /** sse and websocket only. */
  add_timestamps?: boolean;
}

/** A websocket generation request (PROTOCOLS.md 1.5, CJS `GenerationRequest`). */
export interface WireContextRequest extends WireTtsBody {
  context_id: string;
  /** True while more text will follow in this context. */
  continue: boolean;
  /** 0..5000 ms, default 3000 (server side). */
  max_buffer_delay_ms?: number;
  /** Generate what the context buffered now (a separate message with `transcript: ''`, `continue: true`). */
  flush?: boolean;
}

/** Cancels a websocket context (CJS `WebsocketClientEvent.CancelContextRequest`). */
export interface WireCancelRequest {
  context_id: string;
  cancel: true;
}

/** Word timestamps as parallel arrays, times in seconds (COAS `WordTimestamps`). */
export const wordTimestampsSchema = lazySchema((z) =>
  z.looseObject({
    words: z.array(z.string()),
    start: z.array(z.number()),
    end: z.array(z.number()),
  }),
);

/**
 * A TTS event of `/tts/sse` and `/tts/websocket`, told apart by `type`: `chunk` (base64 audio
 * in `data`), `timestamps` (`word_timestamps`), `phoneme_timestamps`, `flush_done`, `done`
 * and `error` (the error fields are read by the transport's `errorFromStreamPayload`).
 */
export const ttsEventSchema = lazySchema((z) =>
  z.looseObject({
    type: z.string(),
    context_id: z.string().nullish(),
    data: z.string().nullish(),
    done: z.boolean().nullish(),
    word_timestamps: wordTimestampsSchema().nullish(),
  }),
);

/** A parsed TTS event. */
export type TtsEvent = z.infer<ReturnType<typeof ttsEventSchema>>;

/** One word of an STT transcript, times in seconds (COAS example, CJS-v2 `TranscriptionWord`). */
export const sttWordSchema = lazySchema((z) =>
  z.looseObject({
    word: z.string(),
    start: z.number(),
    end: z.number(),
  }),
);

/**
 * A message of `/stt/websocket` (PROTOCOLS.md 1.6): `transcript` (`text` is the delta since the
 * last final; `is_final`; `duration` in seconds; `words`), `flush_done`, `done`, `error`. `words` is per-word objects on
 * the wire; the parallel-arrays shape of the current TS type is accepted too.
 */
export const sttMessageSchema = lazySchema((z) =>
  z.looseObject({
    type: z.string(),
    text: z.string().nullish(),
    is_final: z.boolean().nullish(),
    duration: z.number().nullish(),
    words: z
      .union([z.array(sttWordSchema()), wordTimestampsSchema(), z.array(wordTimestampsSchema())])
      .nullish(),
  }),
);

/** A parsed STT message. */
export type SttMessage = z.infer<ReturnType<typeof sttMessageSchema>>;
