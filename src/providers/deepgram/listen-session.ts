import { AbortError, TimeoutError } from '../../errors/index.js';
import type { AbortSource } from '../../internal/abort-link.js';
import type { Clock } from '../../internal/clock.js';
import { markRouterStall, setStallTolerantTimeout } from '../../internal/stall.js';
import type { WebSocketConnection, WebSocketMessage } from '../../transport/websocket-types.js';
import { LISTEN_CONTROL } from './api-types.js';

/** Settings of one {@link ListenSession}. */
export interface ListenSessionOptions {
  provider: string;
  clock: Clock;
  /** Ms without a frame sent before a KeepAlive goes out; 0: never. */
  keepAliveIntervalMs: number;
  /** Longest wait for the next server message after CloseStream, in ms (TimeoutError `idle`). */
  closeWaitMs: number;
  /** The attempt's signal: aborting it ends the session with AbortError. */
  signal: AbortSource;
}

/**
 * The client side of one `/v1/listen` socket (PROTOCOLS.md 3.2), apart from reading results:
 * - {@link pump} sends the caller's audio as binary frames as it arrives; when the audio ends it
 *   sends `{"type":"Finalize"}` then `{"type":"CloseStream"}` and from then on sends nothing,
 *   waiting at most `closeWaitMs` between server messages for the last results and `Metadata`
 *   (counted only while {@link messages} waits for one, never while its reader holds a message);
 * - while no frame has been sent for `keepAliveIntervalMs`, it sends `{"type":"KeepAlive"}` as
 *   a text frame, and again every interval (Deepgram closes after 10 s without audio
 *   or text);
 * - a send into a closed socket is never attempted twice and never throws (the transport's
 *   `send` returns false; the close itself comes out of {@link messages});
 * - {@link messages} yields the server's messages until the socket closes, and throws as soon
 *   as the session fails: the caller's audio source threw, the signal aborted, or the wait
 *   after CloseStream passed.
 * `stop()` ends everything: timers cleared, the audio source's iterator returned.
 */
export class ListenSession {
  /** True once CloseStream has been sent: the caller's audio has ended. */
  closeStreamSent = false;
  /** KeepAlive messages sent so far. */
  keepAlivesSent = 0;
  /** Bytes of the caller's audio sent on this socket so far (what its transcript times can cover). */
  audioBytesSent = 0;
  private stopped = false;
  private lastSentAt: number;
  /** When the last audio frame was sent (the socket's opening before any), on the clock. */
  private lastAudioAt: number;
  private keepAliveTimer: unknown;
  /** Cancels the wait after CloseStream, while it runs. */
  private cancelCloseWait: (() => void) | undefined;
  /** True while {@link messages} waits for the server's next message. */
  private reading = false;
  private failure: { error: unknown } | undefined;
  /** Rejects the pending wait of {@link messages}, when there is one. */
  private interrupt: ((error: unknown) => void) | undefined;
  private audioIterator: AsyncIterator<Uint8Array> | undefined;
  private readonly onAbort = () =>
    this.fail(new AbortError(`Transcription by provider '${this.options.provider}' aborted`));

  constructor(
    private readonly conn: WebSocketConnection,
    private readonly options: ListenSessionOptions,
  ) {
    this.lastSentAt = options.clock.now();
    this.lastAudioAt = this.lastSentAt;
    if (options.signal.aborted) this.onAbort();
    else options.signal.addEventListener('abort', this.onAbort, { once: true });
    if (options.keepAliveIntervalMs > 0) this.armKeepAlive(options.keepAliveIntervalMs);
  }

  /** Starts sending `audio` in the background (see the class doc). Call once. */
  pump(audio: AsyncIterable<Uint8Array>): void {
    void this.runPump(audio);
  }

  /**
   * The server's messages in order; ends when the socket closes normally; throws what the
   * transport throws, or the session's own failure as soon as it happens.
   */
  async *messages(): AsyncGenerator<WebSocketMessage> {
    const iterator = this.conn.messages()[Symbol.asyncIterator]();
    try {
      for (;;) {
        if (this.failure) throw this.failure.error;
        const next = iterator.next();
        // The wait after CloseStream counts only while the reader waits for the server: a slow
        // consumer holding the stream between two messages is not a silent server.
        this.reading = true;
        if (this.closeStreamSent) this.armCloseWait();
        const step = await new Promise<IteratorResult<WebSocketMessage>>((resolve, reject) => {
          this.interrupt = reject;
          next.then(resolve, reject);
        }).finally(() => {
          this.reading = false;
          this.clearCloseWait();
        });
        this.interrupt = undefined;
        if (step.done) return;
        yield step.value;
      }
    } finally {
      Promise.resolve(iterator.return?.()).catch(() => {});
    }
  }

  /**
   * Ms since the last audio frame was sent on this socket, or since the socket opened when none
   * was (on the session's clock): how long Deepgram has been without audio, as far as this
   * client can tell.
   */
  msSinceAudio(): number {
    return this.options.clock.now() - this.lastAudioAt;
  }

  /** Ends the session: timers cleared, the audio source's iterator returned. Idempotent. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.options.signal.removeEventListener('abort', this.onAbort);
    this.clearKeepAlive();
    this.clearCloseWait();
    const iterator = this.audioIterator;
    this.audioIterator = undefined;
    if (iterator?.return) Promise.resolve(iterator.return()).catch(() => {});
  }

  private fail(error: unknown): void {
    if (this.failure || this.stopped) return;
    this.failure = { error };
    this.interrupt?.(error);
  }

  private async runPump(audio: AsyncIterable<Uint8Array>): Promise<void> {
    const iterator = audio[Symbol.asyncIterator]();
    this.audioIterator = iterator;
    try {
      for (;;) {
        const step = await iterator.next();
        if (this.stopped || this.failure) return;
        if (step.done) break;
        if (step.value.byteLength === 0) continue;
        if (!this.send(step.value)) return;
        this.audioBytesSent += step.value.byteLength;
        this.lastAudioAt = this.lastSentAt;
      }
    } catch (error) {
      this.fail(error);
      return;
    }
    this.audioIterator = undefined;
    this.clearKeepAlive();
    if (!this.send(LISTEN_CONTROL.finalize) || !this.send(LISTEN_CONTROL.closeStream)) return;
    this.closeStreamSent = true;
    if (this.reading) this.armCloseWait();
  }

  /** Sends one frame; false (nothing sent) once the socket is no longer open. */
  private send(data: string | Uint8Array): boolean {
    if (this.stopped || !this.conn.isOpen) return false;
    if (!this.conn.send(data)) return false;
    this.lastSentAt = this.options.clock.now();
    return true;
  }

  private armKeepAlive(delayMs: number): void {
    this.keepAliveTimer = this.options.clock.setTimeout(() => this.onKeepAliveTimer(), delayMs);
  }

  private clearKeepAlive(): void {
    if (this.keepAliveTimer !== undefined) this.options.clock.clearTimeout(this.keepAliveTimer);
    this.keepAliveTimer = undefined;
  }

  private onKeepAliveTimer(): void {
    this.keepAliveTimer = undefined;
    if (this.stopped || this.failure || this.closeStreamSent) return;
    const interval = this.options.keepAliveIntervalMs;
    const quietMs = this.options.clock.now() - this.lastSentAt;
    if (quietMs < interval) {
      this.armKeepAlive(interval - quietMs);
      return;
    }
    if (!this.send(LISTEN_CONTROL.keepAlive)) return;
    this.keepAlivesSent++;
    this.armKeepAlive(interval);
  }

  private clearCloseWait(): void {
    this.cancelCloseWait?.();
    this.cancelCloseWait = undefined;
  }

  /**
   * Arms the wait after CloseStream. Stall-tolerant (src/internal/stall.ts): a timer that fires
   * late because the event loop was blocked gets one more turn, so a result already in the
   * socket, or the router's first-chunk deadline due earlier, goes first; if it still passes,
   * its TimeoutError is marked as the router's stall and the provider is not charged.
   */
  private armCloseWait(): void {
    if (this.stopped) return;
    const { clock, closeWaitMs, provider } = this.options;
    this.clearCloseWait();
    this.cancelCloseWait = setStallTolerantTimeout(clock, closeWaitMs, (stalled) => {
      this.cancelCloseWait = undefined;
      const error = new TimeoutError('idle', closeWaitMs, { provider });
      this.fail(stalled ? markRouterStall(error) : error);
    });
  }
}
