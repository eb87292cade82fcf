import { ProtocolError } from '../../errors/index.js';
import type { WebSocketConnection } from '../../transport/websocket-types.js';
import { cartesiaFrame } from './frame.js';

/** Receives the messages of one websocket context. */
export interface ContextListener {
  /** The context's id: only messages carrying it are delivered. */
  contextId: string;
  /** A JSON message for this context (or an `error` without `context_id`, which concerns the socket). */
  message(json: Record<string, unknown>): void;
  /**
   * The socket failed or closed while the context was attached: `error` is what `messages()`
   * threw (ProviderError for an error close, TimeoutError, AbortError) or a ProtocolError for
   * a frame that is not a JSON object; undefined for a normal close (1000 / 1005).
   */
  end(error: unknown): void;
}

/**
 * One `/tts/websocket` connection, read by a single pump for its whole life (PROTOCOLS.md 1.5:
 * every server message is a JSON text frame carrying `context_id`). At most one context is
 * attached at a time; its messages go to its listener, and every message of another context
 * (late audio of a context that was cancelled or timed out) or arriving while none is
 * attached is discarded. The socket can be reused by the next call once its context ended.
 */
export class TtsSocket {
  private listener: ContextListener | undefined;
  private ended = false;

  constructor(
    private readonly connection: WebSocketConnection,
    private readonly provider: string,
  ) {
    void this.pump();
  }

  /** True while the socket can carry a new context (open, and its pump still reading). */
  get usable(): boolean {
    return !this.ended && this.connection.isOpen;
  }

  /** Attaches `listener` (replacing any other). */
  attach(listener: ContextListener): void {
    this.listener = listener;
    if (this.ended) {
      this.listener = undefined;
      listener.end(
        new ProtocolError('The Cartesia WebSocket had already closed', { provider: this.provider }),
      );
    }
  }

  /** Detaches `listener` if it is the attached one; later messages of its context are discarded. */
  detach(listener: ContextListener): void {
    if (this.listener === listener) this.listener = undefined;
  }

  /** Sends `message` as one JSON text frame; false when the socket is no longer open. */
  send(message: object): boolean {
    return this.connection.send(JSON.stringify(message));
  }

  /**
   * Whether the socket keeps the process alive: false while it waits idle in the pool, true
   * while a call uses it (see `WebSocketConnection.setRef`; a transport without it: always).
   */
  setRef(ref: boolean): void {
    this.connection.setRef?.(ref);
  }

  /** Starts the close handshake (code 1000). Idempotent. */
  close(): void {
    this.ended = true;
    this.connection.close(1000);
  }

  private async pump(): Promise<void> {
    let failure: unknown;
    try {
      for await (const message of this.connection.messages()) {
        const listener = this.listener;
        let record: Record<string, unknown>;
        try {
          record = cartesiaFrame(message, this.provider);
        } catch (error) {
          listener?.end(error);
          continue;
        }
        if (!listener) continue;
        const contextId = record.context_id;
        if (contextId === listener.contextId || (contextId == null && record.type === 'error')) {
          listener.message(record);
        }
      }
    } catch (error) {
      failure = error;
    }
    this.ended = true;
    const listener = this.listener;
    this.listener = undefined;
    listener?.end(failure);
  }
}
