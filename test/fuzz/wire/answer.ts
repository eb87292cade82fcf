/**
 * A provider's valid answer as the fuzz harness sees it: an ordered list of frames (an SSE
 * event, a WebSocket message, an event-stream message, a piece of a raw body), some of them
 * JSON, and which of them end the answer. Mutations (mutations.ts) act on this model and give
 * the messages a server writes, and whether the answer's end marker survived.
 */

/** One frame of an answer. */
export interface Frame {
  /** The frame's JSON value, when it carries one (re-encoded after a field mutation). */
  json?: unknown;
  /** The frame's bytes when it carries no JSON (raw PCM), or a fixed text such as `[DONE]`. */
  raw?: Buffer;
  /** Which JSON fields hold base64 audio (mutated by the base64 and odd-PCM kinds). */
  audioField?: string;
}

/** How the frames of a wire are written. */
export interface Wire {
  /** A frame's bytes on the wire (an SSE event, a WebSocket message, an event-stream message). */
  encode(frame: Frame): Buffer;
  /**
   * Indices of the frames that end the answer: it is complete when any of them arrived intact
   * and in place; an empty list means the wire has no in-band end (a raw body ends with the
   * HTTP framing).
   */
  ends: readonly number[];
  /** The JSON path (in a frame's value) whose value says what a frame is (`type`, `isFinal`). */
  discriminators: readonly string[];
  /**
   * Bytes at the end of a frame whose loss at the end of the body still delivers it: an SSE
   * event's blank line (docs/transport.md, "Lenient end"). Default 0.
   */
  slack?: number;
  /** A WebSocket the provider keeps open after a whole answer (Cartesia TTS: the next call's context goes on it). */
  keepOpen?: boolean;
  /** True when messages go as WebSocket messages (one frame each); false for one HTTP body. */
  messages: boolean;
  /** A clean end of the body (between frames) ends the answer too, beside the `ends` frames. */
  cleanEnd?: boolean;
  /** The provider's error frame (an in-band error), inserted by the error-frame mutation. */
  error?: Frame;
  /** The body is event-stream messages (the event-stream kinds apply; a cut inside one is a cut answer). */
  eventStream?: boolean;
}

/** A mutated answer: the messages to send and what the harness may expect of the call. */
export interface Mutated {
  /** For HTTP: the body in pieces; for WebSocket: the messages in order. */
  messages: Buffer[];
  /**
   * False when the mutation cut or removed every end marker (a call that ends normally with the
   * primary's output then reports a cut answer complete); 'unknown' when the harness cannot tell
   * (a flipped byte); true when the answer's end arrived.
   */
  endKept: boolean | 'unknown';
  /** How the connection ends after the messages. */
  ending: Ending;
  /** Indices of `messages` to send as binary WebSocket frames (text otherwise). */
  binary?: number[];
  /** A content-type replacing the wire's own (HTTP only). */
  contentType?: string;
  /** A short label of the mutation, for the report. */
  label: string;
  /** The kind of mutation (truncate, flip, ...), for the per-kind summary. */
  kind: string;
}

/**
 * How a connection ends: HTTP `end` (the framing says complete) or `reset`; a WebSocket close
 * code, `drop` (no close frame) or `open` (kept for the next request).
 */
export type Ending = 'end' | 'reset' | 1000 | 1001 | 1011 | 4000 | 'drop' | 'open';
