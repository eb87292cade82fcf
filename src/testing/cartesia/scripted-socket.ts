import type { Delay } from '../delay.js';
import type { MockSocket } from '../mock-websocket.js';
import type { RecordedRequest } from '../recorded-request.js';
import type { CartesiaMockScript } from './script.js';
import { DEFAULT_CLOSE_CODE } from './script.js';

/** What became of one counted message (see {@link ScriptedSocket.chunk}). */
export type ChunkOutcome = 'sent' | 'error' | 'halted' | 'skipped';

/**
 * The server side of one mock WebSocket with a {@link CartesiaMockScript} applied: messages go
 * out one after another, in the order they were queued; counted messages ("chunks") wait for
 * the script's delays and trigger its faults at their position K. Once halted (reset, close,
 * stall, or the socket closed) nothing more is sent.
 */
export class ScriptedSocket {
  /** Aborts when the socket has closed (either side). */
  readonly gone = new AbortController();
  /** Counted messages sent so far. */
  sent = 0;
  private halted = false;
  /** Reset or closed by the script: the session is over (a stall still reads the client). */
  private dropped = false;
  private errorSent = false;
  private malformedSent = false;
  private order: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly socket: MockSocket,
    private readonly script: CartesiaMockScript,
    private readonly delay: Delay,
    /** The connection's record: counts each chunk sent, ends `'reset'` on a scripted reset. */
    private readonly record: Pick<RecordedRequest, 'chunksSent'>,
    private readonly finish: (outcome: 'reset') => void,
  ) {
    socket.onClose(() => {
      this.halted = true;
      this.gone.abort();
    });
  }

  /** True once nothing more will be sent. */
  get isHalted(): boolean {
    return this.halted;
  }

  /**
   * Applies the faults that fire before any message (K = 0: reset, close, stall). Returns false
   * when the session is over (reset or closed); a stalled session still reads the client.
   */
  start(): boolean {
    this.checkFatal();
    return !this.dropped;
  }

  /**
   * Queues a counted message: first the faults at its position, then the wait (`first`:
   * `firstChunkDelayMs`, else `chunkGapMs`), then `frame()` is sent. `errorPayload()` is sent
   * instead when `errorEventAfterChunks` fires here (outcome `'error'`). When `live()` is false
   * (checked before and after the wait; e.g. the context was cancelled) nothing is sent or
   * counted (outcome `'skipped'`).
   */
  chunk(
    frame: () => string,
    first: boolean,
    errorPayload: () => object,
    live: () => boolean = () => true,
  ): Promise<ChunkOutcome> {
    return this.enqueue(async (): Promise<ChunkOutcome> => {
      if (this.halted) return 'halted';
      if (!live()) return 'skipped';
      this.checkFatal();
      if (this.halted) return 'halted';
      if (!this.errorSent && this.sent === this.script.errorEventAfterChunks) {
        this.errorSent = true;
        this.socket.send(JSON.stringify(errorPayload()));
        return 'error';
      }
      if (!this.malformedSent && this.sent === this.script.malformedAfterChunks) {
        this.malformedSent = true;
        this.socket.send('{"type": "chunk", "data": tru');
      }
      const wait = first ? this.script.firstChunkDelayMs : this.script.chunkGapMs;
      if (wait !== undefined && wait > 0) await this.delay(wait, this.gone.signal);
      if (this.halted) return 'halted';
      if (!live()) return 'skipped';
      this.sent++;
      this.record.chunksSent++;
      this.socket.send(frame());
      return 'sent';
    });
  }

  /**
   * Queues an uncounted message, made when its turn comes: `payload()` gives the message (an
   * object is sent as JSON), or undefined to send nothing. Dropped once halted; resolves true
   * when it was sent.
   */
  message(payload: () => object | string | undefined): Promise<boolean> {
    return this.enqueue(async () => {
      if (this.halted) return false;
      const message = payload();
      if (message === undefined) return false;
      this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
      return true;
    });
  }

  /** Queues a close with `code` and `reason` after what is queued before it. */
  close(code: number, reason: string): Promise<void> {
    return this.enqueue(async () => {
      if (this.halted) return;
      this.halted = true;
      this.socket.close(code, reason);
    });
  }

  private enqueue<T>(step: () => Promise<T>): Promise<T> {
    const run = this.order.then(step, step);
    this.order = run.catch(() => undefined);
    return run;
  }

  /** Reset, close and stall at the current position. */
  private checkFatal(): void {
    const k = this.sent;
    if (k === this.script.resetAfterChunks) {
      this.halted = true;
      this.dropped = true;
      this.finish('reset');
      this.socket.terminate();
      return;
    }
    if (k === this.script.closeAfterChunks) {
      this.halted = true;
      this.dropped = true;
      this.socket.close(this.script.closeCode ?? DEFAULT_CLOSE_CODE, this.script.closeReason ?? '');
      return;
    }
    if (k === this.script.stallAfterChunks) this.halted = true;
  }
}
