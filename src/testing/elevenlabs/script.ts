import type { MockScript } from '../mock-script.js';
import type { PerCall } from '../per-call.js';

/**
 * The script of one stream-input WebSocket session: the {@link MockScript} fields, read for a
 * socket as follows (a "chunk" is one audio message; K counts audio messages sent), plus close
 * faults:
 * - `firstChunkDelayMs` before the session's first audio message, `chunkGapMs` before each
 *   later one; `chunkBytes`: audio bytes per message (default 4800);
 * - `failTimes` / `failStatus` / `failBody`: refuse the upgrade with that HTTP status (call
 *   numbers count upgrades); `retryAfter` and `headersDelayMs` do not apply;
 * - `resetAfterChunks`: drop the connection without a close frame after K (0: at once);
 * - `stallAfterChunks`: after K, send nothing more (no audio, no `isFinal`, no close) while
 *   still reading the client;
 * - `errorEventAfterChunks` with `errorEvent`: after K, send an error message
 *   `{"message","error","code"}` (`error` = `errorEvent.code` when a string, else
 *   `errorEvent.type`, default `'internal_error'`; `code` = `errorEvent.code` when a number,
 *   else 1011), then close with that code;
 * - `malformedAfterChunks`: after K, send one frame that is not JSON, then go on;
 * - `endWithoutDone`: after `{"text":""}`, send the last audio and close with 1000 without
 *   `{"isFinal":true}`;
 * - `closeAfterChunks`: after K (0: right after the upgrade, before any message is read),
 *   close with `closeCode` (default 1011) and `closeReason` (default `''`).
 * Faults are checked in this order at each position: reset, close, stall, error, malformed.
 *
 * @example
 * ```ts
 * const c18: ElevenLabsSocketScript = { closeAfterChunks: 0, closeCode: 1008, closeReason: 'invalid api key' };
 * ```
 */
export interface ElevenLabsSocketScript extends MockScript {
  /**
   * After this many audio messages (0: right after the upgrade), close the socket with `closeCode` and
   * `closeReason`. Default: never.
   */
  closeAfterChunks?: number;
  /** Close code of the scripted close, e.g. 1008 (policy: a refused key). Default: 1011. */
  closeCode?: number;
  /** Close reason of the scripted close (at most 123 bytes of UTF-8). Default: `''`. */
  closeReason?: string;
}

/**
 * One script per endpoint of the ElevenLabs mock: `stream` (every HTTP endpoint: `POST
 * .../{voice_id}`, `.../stream` and `.../stream/with-timestamps`) and `streamInput` (the
 * WebSocket). An endpoint left out runs unscripted.
 *
 * @example
 * ```ts
 * const scripts: ElevenLabsScripts = { stream: [{ failTimes: 1, failStatus: 429, retryAfter: '1' }] };
 * ```
 */
export interface ElevenLabsScripts {
  /** Script of the HTTP stream endpoint (`POST /v1/text-to-speech/{voice}/stream`), per call. */
  stream?: PerCall<MockScript>;
  /** Script of the stream-input WebSocket, per connection. */
  streamInput?: PerCall<ElevenLabsSocketScript>;
}
