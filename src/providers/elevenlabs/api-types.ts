import type { z } from 'zod';
import { lazySchema } from '../../internal/zod.js';
import type { WireVoiceSettings } from './endpoint.js';

/*
 * Wire shapes of ElevenLabs' stream-input WebSocket (PROTOCOLS.md 4.3; ELJS
 * `serialization/types/*`, ELAAPI). Client messages use snake_case keys, server messages
 * camelCase. Server objects are loose: unknown fields are kept and ignored.
 *
 * Each schema is a function that builds it on its first call and returns the same object
 * afterwards (`lazy`, with zod from src/internal/zod.ts), so that importing voxroute does not
 * load zod; call it where the message is parsed, e.g. `parseWire(xSchema(), ...)`.
 */

/**
 * Character alignment of one audio message: `chars[i]` starts `charStartTimesMs[i]` ms and lasts
 * `charDurationsMs[i]` ms into the audio of that message (ELJS `Alignment.Raw`). The 2025
 * asyncapi spells the durations `charsDurationsMs`; which one the server sends is UNCONFIRMED,
 * so both are read (PROTOCOLS.md 4.3, 7 item 4).
 */
export const alignmentSchema = lazySchema((z) =>
  z.looseObject({
    chars: z.array(z.string()).nullish(),
    charStartTimesMs: z.array(z.number()).nullish(),
    charDurationsMs: z.array(z.number()).nullish(),
    charsDurationsMs: z.array(z.number()).nullish(),
  }),
);

/** A parsed alignment object. */
export type WireAlignment = z.infer<ReturnType<typeof alignmentSchema>>;

/**
 * Any message from the server: audio (`audio` base64 in the output format, with
 * `alignment` / `normalizedAlignment`), the end (`isFinal: true`, `audio` null or absent), or an
 * error (`message`, `error` code such as `input_timeout_exceeded`, `code` 1008), which the server
 * follows with a close (PROTOCOLS.md 4.3; error shape as ElevenLabs sends it, quoted in
 * livekit/agents#218 and elevenlabs-docs#426).
 */
export const serverMessageSchema = lazySchema((z) =>
  z.looseObject({
    audio: z.string().nullish(),
    isFinal: z.boolean().nullish(),
    alignment: alignmentSchema().nullish(),
    normalizedAlignment: alignmentSchema().nullish(),
    message: z.string().nullish(),
    error: z.string().nullish(),
    code: z.number().nullish(),
  }),
);

/** A parsed server message. */
export type ServerMessage = z.infer<ReturnType<typeof serverMessageSchema>>;

/** The first client message (ELJS `InitializeConnection.Raw`): text `" "`, settings, and the key when not in the handshake. */
export interface WireInitializeMessage {
  text: ' ';
  voice_settings?: WireVoiceSettings;
  generation_config?: { chunk_length_schedule: number[] };
  'xi-api-key'?: string;
}

/** A text message (ELJS `SendText.Raw`): text ending with a space; `flush` forces generation of what is buffered. */
export interface WireTextMessage {
  text: string;
  flush?: true;
}
