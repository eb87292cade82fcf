import type { z } from 'zod';
import { lazySchema } from '../../internal/zod.js';

/*
 * Wire shapes of Deepgram's live STT (`/v1/listen`), as zod schemas (PROTOCOLS.md 3.2, source
 * DGJS `listen/v1/types/*`). Objects are loose: fields we do not read (`channel_index`,
 * `metadata`, `entities`, `languages`, `speaker`, ...) are kept and ignored.
 *
 * Each schema is a function that builds it on its first call and returns the same object
 * afterwards (`lazy`, with zod from src/internal/zod.ts), so that importing voxroute does not
 * load zod; call it where the message is parsed, e.g. `parseWire(xSchema(), ...)`.
 */

/** One word of a result: times in seconds from the start of the stream. */
export const listenWordSchema = lazySchema((z) =>
  z.looseObject({
    word: z.string(),
    start: z.number(),
    end: z.number(),
    confidence: z.number().nullish(),
    punctuated_word: z.string().nullish(),
  }),
);

/** One alternative of a result's channel (voxroute reads the first). */
export const listenAlternativeSchema = lazySchema((z) =>
  z.looseObject({
    transcript: z.string(),
    confidence: z.number().nullish(),
    words: z.array(listenWordSchema()).nullish(),
  }),
);

/**
 * A `Results` message: `start` and `duration` in seconds locate the audio it covers;
 * `is_final: false` marks an interim result, `is_final: true` settled text, `speech_final: true`
 * an endpoint, `from_finalize: true` a result flushed by `Finalize`.
 */
export const listenResultsSchema = lazySchema((z) =>
  z.looseObject({
    type: z.literal('Results'),
    start: z.number().nullish(),
    duration: z.number().nullish(),
    is_final: z.boolean().nullish(),
    speech_final: z.boolean().nullish(),
    from_finalize: z.boolean().nullish(),
    channel: z.looseObject({ alternatives: z.array(listenAlternativeSchema()) }),
  }),
);

/** A parsed `Results` message. */
export type ListenResults = z.infer<ReturnType<typeof listenResultsSchema>>;

/** Any server message: a JSON object with a string `type` (`Results`, `Metadata`, `SpeechStarted`, `UtteranceEnd`). */
export const listenMessageSchema = lazySchema((z) => z.looseObject({ type: z.string() }));

/** The text control messages a client sends (PROTOCOLS.md 3.2, DGDOC-finalize, -close-stream, -audio-keep-alive). */
export const LISTEN_CONTROL = {
  keepAlive: JSON.stringify({ type: 'KeepAlive' }),
  finalize: JSON.stringify({ type: 'Finalize' }),
  closeStream: JSON.stringify({ type: 'CloseStream' }),
} as const;
