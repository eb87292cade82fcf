import type { RecordedRequest } from '../recorded-request.js';

/**
 * A frame a Cartesia mock WebSocket received from the client, in arrival order: text (with
 * its JSON when it parsed) or binary.
 *
 * @example
 * ```ts
 * const texts = record.frames.filter((f): f is Extract<CartesiaReceivedFrame, { type: 'text' }> => f.type === 'text');
 * ```
 */
export type CartesiaReceivedFrame =
  | {
      /** A text frame. */
      type: 'text';
      /** The frame's text. */
      data: string;
      /** The parsed JSON of `data`; undefined when it is not JSON. */
      json?: unknown;
    }
  | {
      /** A binary frame. */
      type: 'binary';
      /** The frame's bytes. */
      data: Uint8Array;
    };

/**
 * The record of one WebSocket connection to the Cartesia mock: the upgrade request (URL with
 * query, headers; `method` `'GET'`), then every frame received, and how it closed. `chunksSent`
 * counts counted messages (see CartesiaMockScript); `outcome` is `'completed'` when the session
 * ended normally (every TTS context ended with `done` or an error, or the STT `done` sent),
 * `'reset'` after a scripted reset, `'aborted'` otherwise (the client cancelled a context, or
 * the socket closed with work pending).
 *
 * @example
 * ```ts
 * const socket = mock.sockets[0]!;
 * await socket.ended;
 * expect(socket.closeCode).toBe(1000);
 * ```
 */
export interface CartesiaSocketRecord extends RecordedRequest {
  /** Every frame from the client, in order. */
  frames: CartesiaReceivedFrame[];
  /** The JSON messages among `frames` (TTS requests), in order. */
  messages: unknown[];
  /** Close code and reason once the socket has closed (1005 / 1006 when there was none). */
  closeCode?: number;
  /** Close reason once the socket has closed (`''` when there was none); undefined while open. */
  closeReason?: string;
}
