import type { MockScript } from '../mock-script.js';

/**
 * How the Deepgram mock's `/v1/listen` behaves on one connection. A "chunk" here is one server
 * message (`Results`, `UtteranceEnd`, `SpeechStarted`, `Metadata`); each fault fires instead of message K+1 (K = 0: instead of
 * the first). From {@link MockScript}:
 * - `failTimes`, `failStatus` (default 500), `failBody`, `retryAfter`: refuse the upgrade with
 *   that HTTP status for the first N connections (through msw: a close code, see
 *   `mockWebSocketHandler`);
 * - `firstChunkDelayMs`, `chunkGapMs`: waits (through the mock's `delay`) before the first
 *   message and between messages;
 * - `resetAfterChunks`: drop the connection without a close frame (the client sees 1006);
 * - `stallAfterChunks`: send nothing more, and ignore CloseStream (no Metadata, no close);
 * - `malformedAfterChunks`: send one text frame that is not JSON, then go on;
 * - `endWithoutDone`: after CloseStream, close (1000) without sending `Metadata`: a cut stream,
 *   which a client must not take as the end (voxroute's listen adapter throws a retryable
 *   ProtocolError, truncated, and the route falls back).
 * `headersDelayMs`, `chunkBytes`, `errorEventAfterChunks` and `errorEvent` do not apply.
 * Added here:
 * - `closeAfterChunks`, `closeCode` (default 1011), `closeReason` (default
 *   `'mock server: scripted close'`): close with that code and reason (e.g. 1008
 *   `'invalid api key'`; 1011 `'NET-0001 ...'`).
 *
 * @example
 * ```ts
 * const script: DeepgramListenScript = { closeAfterChunks: 0, closeCode: 1011, closeReason: 'NET-0000 busy' };
 * ```
 */
export interface DeepgramListenScript extends MockScript {
  /**
   * After this many messages (0: right after the upgrade), close the socket with `closeCode` and
   * `closeReason`. Default: never.
   */
  closeAfterChunks?: number;
  /** Close code of the scripted close, e.g. 1008 (policy: a refused key). Default: 1011. */
  closeCode?: number;
  /**
   * Close reason of the scripted close (at most 123 bytes of UTF-8). Default: `'mock server: scripted
   * close'`.
   */
  closeReason?: string;
}

/** Default {@link DeepgramListenScript.closeReason}. */
export const DEEPGRAM_SCRIPTED_CLOSE_REASON = 'mock server: scripted close';

/**
 * Default inactivity window of the mock's `/v1/listen`, in ms: with no frame (binary or text)
 * from the client for this long, it closes with 1011 and a `NET-0001` reason, as Deepgram does
 * after 10 s (Deepgram's Audio Keep Alive documentation).
 */
export const DEEPGRAM_INACTIVITY_TIMEOUT_MS = 10_000;

/**
 * The close reason of the mock's inactivity close, for a window of `windowMs`: it starts with
 * Deepgram's code `NET-0001` (Deepgram's WebSocket error documentation; the exact wording of Deepgram's reason is not
 * documented) and stays within the 123 bytes a close reason may hold.
 *
 * @example
 * ```ts
 * deepgramInactivityReason(3000); // 'NET-0001 no audio or text received within the 3000 ms window'
 * ```
 */
export function deepgramInactivityReason(windowMs: number): string {
  return `NET-0001 no audio or text received within the ${windowMs} ms window`;
}
