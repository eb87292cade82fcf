import type { MockScript } from '../mock-script.js';
import type { PerCall } from '../per-call.js';

/**
 * The endpoints of the Cartesia mock: `'bytes'` (`POST /tts/bytes`), `'sse'` (`POST /tts/sse`),
 * `'stt'` (batch `POST /stt`), `'tts-websocket'` (`/tts/websocket`) and `'stt-websocket'`
 * (`/stt/websocket`).
 *
 * @example
 * ```ts
 * expect(mock.calls('tts-websocket' satisfies CartesiaEndpointName)).toBe(1);
 * ```
 */
export type CartesiaEndpointName = 'bytes' | 'sse' | 'stt' | 'tts-websocket' | 'stt-websocket';

/**
 * The script of one Cartesia mock call: the {@link MockScript} fields, plus WebSocket faults.
 * On HTTP endpoints (`bytes`, `sse`, `stt`) it works as for every mock (a chunk is one body write: a
 * piece of raw audio, or one SSE frame). On the WebSockets a call is one connection (call
 * numbers count upgrades) and a chunk is one counted server message (TTS: one `chunk` audio
 * message; STT: any message); K counts them over the whole connection:
 * - `failTimes` / `failStatus` / `failBody` / `retryAfter`: refuse the upgrade with that HTTP
 *   status (through msw: a close code, see `mockWebSocketHandler`);
 * - `firstChunkDelayMs` before the first audio message of each TTS context (STT: the first
 *   message after each `finalize`), `chunkGapMs` before each later one; `chunkBytes`: raw audio
 *   bytes per TTS message (default 4800);
 * - `resetAfterChunks`: drop the connection without a close frame (the client sees 1006);
 * - `closeAfterChunks` with `closeCode` (default 1011) and `closeReason` (default `''`): close
 *   with that code; K = 0 closes right after the upgrade (1008 `'invalid api key'`);
 * - `stallAfterChunks`: send nothing more (no audio, no `done`, no close) while still reading
 *   the client;
 * - `errorEventAfterChunks` with `errorEvent`: send an error message for the current context
 *   (`{"type":"error","done":true,"status_code",...}`), which ends that context;
 * - `malformedAfterChunks`: send one text frame that is not JSON, then go on;
 * - `endWithoutDone`: never send `done` (TTS contexts; STT sessions);
 * - `lateChunks` (TTS): before the first audio of each context after the first on a
 *   connection, send this many more audio messages of the previous context (late audio that
 *   the client must discard).
 * Faults are checked in this order at each position: reset, close, stall, error, malformed.
 * `headersDelayMs` does not apply to WebSockets.
 *
 * @example
 * ```ts
 * const c18: CartesiaMockScript = { closeAfterChunks: 0, closeCode: 1008, closeReason: 'invalid api key' };
 * const c15: CartesiaMockScript = { stallAfterChunks: 3 };
 * ```
 */
export interface CartesiaMockScript extends MockScript {
  /**
   * After this many counted messages (0: right after the upgrade), close the socket with `closeCode` and
   * `closeReason`. Default: never.
   */
  closeAfterChunks?: number;
  /** Close code of the scripted close, e.g. 1008 (policy: a refused key). Default: 1011. */
  closeCode?: number;
  /** Close reason of the scripted close (at most 123 bytes of UTF-8). Default: `''`. */
  closeReason?: string;
  /**
   * TTS: before the first audio of each context after the first on a connection, send this
   * many more audio messages of the previous context (late audio the client must discard).
   * Default: 0.
   */
  lateChunks?: number;
}

/**
 * One script per endpoint, each a {@link CartesiaMockScript} for every call, an array one per
 * call, or a function of the call ({@link PerCall}); call numbers count per endpoint, from 1
 * (on a WebSocket, one call is one connection). An endpoint left out runs unscripted (answers at
 * once, correctly). Times are in ms.
 *
 * @example
 * ```ts
 * const scripts: CartesiaEndpointScripts = { bytes: [{ failTimes: 1, failStatus: 503 }], 'tts-websocket': { chunkGapMs: 5 } };
 * ```
 */
export interface CartesiaEndpointScripts {
  /**
   * `POST /tts/bytes`: a chunk is one write of raw (or WAV) audio of `chunkBytes` bytes (default
   * 4800; the last may be shorter). Default: none.
   */
  bytes?: PerCall<CartesiaMockScript>;
  /**
   * `POST /tts/sse`: a chunk is one SSE frame (`chunk`, `timestamps` or `done`); `chunkBytes` is
   * the raw audio bytes in each `chunk` frame's base64 data (default 4800). Default: none.
   */
  sse?: PerCall<CartesiaMockScript>;
  /** Batch `POST /stt` (multipart): one JSON transcript body (a single chunk). Default: none. */
  stt?: PerCall<CartesiaMockScript>;
  /**
   * `/tts/websocket`: a call is one connection; a chunk is one `chunk` audio message of
   * `chunkBytes` raw audio bytes (default 4800), counted over the whole connection. The
   * WebSocket faults (`closeAfterChunks`, `lateChunks`...) apply here. Default: none.
   */
  'tts-websocket'?: PerCall<CartesiaMockScript>;
  /**
   * `/stt/websocket`: a call is one connection; a chunk is any server message (a partial or
   * final transcript, `flush_done`, `done`), counted over the whole connection. Default: none.
   */
  'stt-websocket'?: PerCall<CartesiaMockScript>;
}

/** Default {@link CartesiaMockScript.closeCode}: 1011 (internal error). */
export const DEFAULT_CLOSE_CODE = 1011;
