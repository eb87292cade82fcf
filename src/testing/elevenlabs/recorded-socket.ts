/**
 * What the ElevenLabs mock received and sent on one stream-input WebSocket session. The mock
 * fills it in as the session goes on; await `closed` before asserting on the end.
 *
 * @example
 * ```ts
 * const [socket] = mock.sockets;
 * await socket!.closed;
 * expect(socket!.messages.at(-1)).toEqual({ text: '' });
 * ```
 */
export interface ElevenLabsSocketRecord {
  /** 1-based number of this session (upgrades counted, refused ones included). */
  call: number;
  /** The upgrade URL (http: or https:, as the server saw it), query included. */
  url: string;
  /** The voice id from the path. */
  voiceId: string;
  /** The query parameters (`model_id`, `output_format`, `inactivity_timeout`, ...). */
  query: Record<string, string>;
  /** Handshake headers, lower-case names (values as received, so `xi-api-key` too). */
  headers: Record<string, string>;
  /**
   * Where the API key came from: the `xi-api-key` handshake header, the `authorization` query
   * parameter, the first message (any accepted spelling), or nowhere.
   */
  auth: 'header' | 'query' | 'message' | 'none';
  /** Every client message in order: parsed JSON, or the raw text / bytes when it was not JSON. */
  messages: unknown[];
  /** Every server message sent, in order, parsed (a malformed frame as its raw text). */
  sent: unknown[];
  /** The text of each generation, in order (flush, schedule step, try-trigger or end of input). */
  generations: string[];
  /** Audio messages sent. */
  chunksSent: number;
  /** Close code and reason once closed (either side; 1006 for a dropped connection). */
  closeCode?: number;
  /** Close reason once closed (`''` when there was none); undefined while open. */
  closeReason?: string;
  /** Resolves with the close code and reason once the session has closed. */
  closed: Promise<{ code: number; reason: string }>;
  /** Resolves once at least `count` client messages have been received. */
  whenMessages(count: number): Promise<void>;
}

/** A new record; `received` adds a message (and wakes waiters), `close` settles `closed` once. */
export function createSocketRecord(
  fields: Pick<ElevenLabsSocketRecord, 'call' | 'url' | 'voiceId' | 'query' | 'headers'>,
): {
  record: ElevenLabsSocketRecord;
  received: (message: unknown) => void;
  close: (code: number, reason: string) => void;
} {
  let settle!: (value: { code: number; reason: string }) => void;
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    settle = resolve;
  });
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const record: ElevenLabsSocketRecord = {
    ...fields,
    auth: 'none',
    messages: [],
    sent: [],
    generations: [],
    chunksSent: 0,
    closed,
    whenMessages(count) {
      if (record.messages.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
  };
  return {
    record,
    received(message) {
      record.messages.push(message);
      for (let i = waiters.length - 1; i >= 0; i--) {
        if (record.messages.length >= waiters[i]!.count) waiters.splice(i, 1)[0]!.resolve();
      }
    },
    close(code, reason) {
      if (record.closeCode !== undefined) return;
      record.closeCode = code;
      record.closeReason = reason;
      settle({ code, reason });
    },
  };
}
