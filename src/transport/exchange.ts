import { AbortError, TimeoutError, type TimeoutPhase, type VoxrouteError } from '../errors/index.js';
import type { AbortSource } from '../internal/abort-link.js';
import type { Clock } from '../internal/clock.js';
import { markRouterStall } from '../internal/stall.js';
import type { Takeable } from '../internal/takeable.js';
import { encodedBodyError, undecodedCoding } from './content-coding.js';
import { errorBodyDeadlineMs } from './error-body-deadline.js';
import { isInformationalStatus } from './informational.js';
import { mapWireError, truncatedError } from './network-error.js';
import { PhaseDeadlines } from './phase-deadlines.js';
import { providerErrorFromStatus } from './status-error.js';
import type { HttpResponse } from './types.js';
import type { Wire, WireControl, WireRequest, WireSink } from './wire.js';

/** Settings of one {@link Exchange}, from the transport's options. */
export interface ExchangeSettings {
  clock: Clock;
  /** Bytes buffered ahead of the consumer before the socket is paused. */
  maxBufferedBytes: number;
  /** Bytes of an error body read for its message. */
  maxErrorBodyBytes: number;
  /** Resolve with any status instead of throwing for non-2xx (used by preconnect). */
  acceptAnyStatus?: boolean;
  /** Called once when the exchange settles (ended, failed or cancelled). */
  onSettled?: (exchange: Exchange) => void;
}

const REQUEST = 0; // waiting for the response headers
const BODY = 1; // 2xx: streaming the body to the consumer
const ERROR_BODY = 2; // non-2xx: reading the start of the error body
const DONE = 3; // settled: timers cleared, signal listener removed

const END: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });
const NO_STATUS_BODY = new Set([204, 205, 304]);

type ErrorFactory = (partialOutput: boolean) => VoxrouteError;

/**
 * One HTTP exchange, whichever wire carries it: owns the deadlines, the caller's abort signal,
 * the small buffer between socket and consumer, and the mapping of every failure to a typed error.
 * It is the `HttpResponse` that `request()` resolves with, and the iterator of its body.
 *
 * Body reading is driven by the socket, not by the consumer: chunks are buffered up to
 * `maxBufferedBytes`, then the wire is paused (and the idle deadline with it) until the consumer
 * catches up. Chunks already received are delivered before a later failure (timeout, cut body)
 * is thrown; after an abort nothing more is delivered. The error's `partialOutput` tells whether
 * the consumer had received any body bytes when it got the error.
 */
export class Exchange implements HttpResponse, Takeable<Uint8Array>, WireSink {
  status = 0;
  headers: Record<string, string> = {};
  readonly body: AsyncIterable<Uint8Array> = this;
  /** Settles with this exchange at 2xx headers, or rejects with the typed error. */
  readonly response: Promise<Exchange>;

  private readonly request: WireRequest;
  private readonly settings: ExchangeSettings;
  private readonly deadlines: PhaseDeadlines;
  private readonly isFetch: boolean;
  private readonly signal: AbortSource | undefined;
  private control: WireControl | undefined;
  private stage = REQUEST;
  private resolveResponse!: (exchange: Exchange) => void;
  private rejectResponse!: (error: unknown) => void;
  // Body state.
  private readonly queue: (Uint8Array | undefined)[] = [];
  private head = 0;
  private queued = 0;
  private paused = false;
  private received = 0;
  private delivered = 0;
  private contentLength = -1;
  private firstByteSeen = false;
  private ended = false;
  private consumerClosed = false;
  private failureOf: ErrorFactory | undefined;
  private failure: VoxrouteError | undefined;
  private waitResolve: ((result: IteratorResult<Uint8Array, undefined>) => void) | undefined;
  private waitReject: ((error: unknown) => void) | undefined;
  /** The body's reader by {@link take}, waiting for a chunk, the end or a failure. */
  private wake: (() => void) | undefined;
  // Error body state.
  private errorChunks: Uint8Array[] | undefined;
  private errorBytes = 0;
  /** The error-body deadline's timer (see {@link errorBodyDeadlineMs}), while it runs. */
  private errorTimer: unknown;
  /** The timer of {@link endWithin}, while it runs. */
  private endTimer: unknown;

  private readonly onAbort = (): void => {
    this.fail(() => new AbortError(undefined, { cause: this.signal?.reason }), true, true);
  };

  constructor(wire: Wire, request: WireRequest, settings: ExchangeSettings) {
    this.request = request;
    this.settings = settings;
    this.isFetch = wire.isFetch;
    this.signal = request.signal;
    this.response = new Promise<Exchange>((resolve, reject) => {
      this.resolveResponse = resolve;
      this.rejectResponse = reject;
    });
    this.deadlines = new PhaseDeadlines(
      settings.clock,
      request.deadlines,
      wire.observesConnect,
      this.onDeadline,
    );
    if (this.signal?.aborted) {
      this.onAbort();
      return;
    }
    this.signal?.addEventListener('abort', this.onAbort);
    this.control = wire.start(request, this);
    // The wire may have failed synchronously, before `control` was known.
    if (this.stage === DONE && !this.ended) this.control.abort(new AbortError());
  }

  /** Aborts the exchange (the transport is closing): the caller gets an AbortError. */
  abort(message: string): void {
    this.fail(() => new AbortError(message), true, true);
  }

  /** True once the exchange ended, failed or was cancelled. */
  get settled(): boolean {
    return this.stage === DONE;
  }

  // ---- WireSink ----

  onConnected(): void {
    if (this.stage === REQUEST) this.deadlines.markConnected();
  }

  onHeaders(status: number, headers: Record<string, string>): void {
    // A 1xx (102, 103 Early Hints) precedes the final response: wait for that one, deadlines unchanged.
    if (this.stage !== REQUEST || isInformationalStatus(status)) return;
    this.status = status;
    this.headers = headers;
    this.deadlines.markHeaders();
    if ((status >= 200 && status < 300) || this.settings.acceptAnyStatus) {
      const coding =
        headers['content-encoding'] === undefined ? undefined : undecodedCoding(headers, this.isFetch);
      if (coding !== undefined) {
        const provider = this.request.provider;
        this.fail(() => encodedBodyError(provider, coding), true);
        return;
      }
      this.stage = BODY;
      this.contentLength = this.declaredLength(status, headers);
      this.resolveResponse(this);
    } else {
      this.stage = ERROR_BODY;
      this.errorChunks = [];
      this.armErrorBodyDeadline();
      this.request.onErrorStatus?.(status);
    }
  }

  onData(chunk: Uint8Array): void {
    if (this.stage !== BODY) {
      if (this.stage === ERROR_BODY) this.collectErrorBody(chunk);
      return;
    }
    const size = chunk.byteLength;
    if (size === 0) return;
    this.received += size;
    if (this.firstByteSeen) {
      this.deadlines.activity();
    } else {
      this.firstByteSeen = true;
      this.deadlines.markFirstByte();
    }
    const resolve = this.waitResolve;
    if (resolve !== undefined) {
      this.waitResolve = undefined;
      this.waitReject = undefined;
      this.delivered += size;
      resolve({ value: chunk, done: false });
      return;
    }
    this.queue.push(chunk);
    this.queued += size;
    if (this.queued >= this.settings.maxBufferedBytes && !this.paused) {
      this.paused = true;
      this.deadlines.setPaused(true);
      this.control?.pause();
    }
    this.wakeReader();
  }

  onEnd(): void {
    if (this.stage === ERROR_BODY) {
      this.finishErrorBody(false);
      return;
    }
    if (this.stage !== BODY) {
      if (this.stage === REQUEST) this.onError(new Error('response ended before its headers'));
      return;
    }
    if (this.contentLength >= 0 && this.received < this.contentLength) {
      const { received, contentLength } = this;
      const provider = this.request.provider;
      this.fail((partialOutput) => truncatedError(provider, received, contentLength, partialOutput), false);
      return;
    }
    this.ended = true;
    this.settle();
    const resolve = this.waitResolve;
    if (resolve !== undefined) {
      this.waitResolve = undefined;
      this.waitReject = undefined;
      resolve(END);
    }
    this.wakeReader();
  }

  onError(error: unknown, reusedSocketReset = false): void {
    if (this.stage === DONE) return;
    if (this.stage === ERROR_BODY) {
      this.finishErrorBody(false);
      return;
    }
    const stage = this.stage === REQUEST ? 'request' : 'body';
    const received = this.received;
    this.fail(
      (partialOutput) =>
        mapWireError(error, {
          provider: this.request.provider,
          stage,
          receivedBytes: received,
          contentLength: this.contentLength >= 0 ? this.contentLength : undefined,
          partialOutput,
          fromFetch: this.isFetch,
          requestHeaders: this.request.headers,
          reusedSocketReset,
          timeoutMsOf: (phase) => this.deadlines.timeoutMsOf(phase),
        }),
      true,
    );
  }

  // ---- AsyncIterator of the body ----

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array, undefined> {
    return this;
  }

  next(): Promise<IteratorResult<Uint8Array, undefined>> {
    if (this.head < this.queue.length) return Promise.resolve({ value: this.shift(), done: false });
    if (this.failureOf !== undefined) return Promise.reject(this.takeFailure());
    if (this.ended || this.consumerClosed) return Promise.resolve(END);
    if (this.waitResolve !== undefined) {
      return Promise.reject(
        new TypeError('HttpResponse.body: next() called while a previous next() is pending'),
      );
    }
    return new Promise((resolve, reject) => {
      this.waitResolve = resolve;
      this.waitReject = reject;
    });
  }

  /**
   * The body's next chunk when one is buffered, or its end; throws its failure; undefined while
   * the body may still bring more (then {@link onReadable}). The synchronous side of `next()`
   * (see {@link Takeable}): a reader that takes chunks as the wire delivers them pays no
   * promise per chunk.
   */
  take(): IteratorResult<Uint8Array, undefined> | undefined {
    if (this.head < this.queue.length) return { value: this.shift(), done: false };
    if (this.failureOf !== undefined) throw this.takeFailure();
    if (this.ended || this.consumerClosed) return END;
    return undefined;
  }

  /** `wake()` once, when {@link take} may have something: a chunk, the end or a failure. */
  onReadable(wake: () => void): void {
    this.wake = wake;
  }

  /** The consumer stopped (e.g. `break` out of `for await`): closes the connection at once. */
  return(): Promise<IteratorResult<Uint8Array, undefined>> {
    this.release();
    return Promise.resolve(END);
  }

  /**
   * Stops reading and closes the connection (idempotent). A body not yet ended then rejects
   * pending and later `next()` calls with AbortError, so a reader elsewhere does not mistake
   * the cut for a complete body.
   */
  cancel(): Promise<void> {
    if (this.stage === DONE) {
      this.release();
    } else {
      this.fail(() => new AbortError('The response was cancelled'), true, true);
    }
    return Promise.resolve();
  }

  /**
   * The content is complete: the body must end within `ms` (on the settings' clock), or the
   * connection is closed as by `return()` (see HttpResponse.endWithin). Idempotent.
   */
  endWithin(ms: number): void {
    if (this.stage === DONE || this.endTimer !== undefined) return;
    this.endTimer = this.settings.clock.setTimeout(this.onLateEnd, ms);
  }

  // ---- internals ----

  private readonly onLateEnd = (): void => {
    this.endTimer = undefined;
    this.release();
  };

  private readonly onDeadline = (phase: TimeoutPhase, timeoutMs: number, stalled: boolean): void => {
    const provider = this.request.provider;
    this.fail((partialOutput) => {
      const error = new TimeoutError(phase, timeoutMs, { provider, partialOutput });
      // Passed while the event loop was blocked: the router's stall, not charged to the provider.
      return stalled ? markRouterStall(error) : error;
    }, true);
  };

  private shift(): Uint8Array {
    const chunk = this.queue[this.head] as Uint8Array;
    this.queue[this.head] = undefined;
    this.head++;
    if (this.head === this.queue.length) {
      // One chunk at a time is the common case: pop() is cheaper than setting the length.
      if (this.head === 1) this.queue.pop();
      else this.queue.length = 0;
      this.head = 0;
    }
    const size = chunk.byteLength;
    this.queued -= size;
    this.delivered += size;
    if (this.paused && this.queued <= this.settings.maxBufferedBytes >>> 1) {
      this.paused = false;
      if (this.stage === BODY) {
        this.deadlines.setPaused(false);
        this.control?.resume();
      }
    }
    return chunk;
  }

  private takeFailure(): VoxrouteError {
    if (this.failure === undefined) this.failure = (this.failureOf as ErrorFactory)(this.delivered > 0);
    return this.failure;
  }

  private release(): void {
    this.consumerClosed = true;
    this.dropQueue();
    if (this.stage !== DONE) {
      this.settle();
      this.control?.abort(new AbortError('The response body was released before its end'));
    }
    const resolve = this.waitResolve;
    if (resolve !== undefined) {
      this.waitResolve = undefined;
      this.waitReject = undefined;
      resolve(END);
    }
    this.wakeReader();
  }

  private wakeReader(): void {
    const wake = this.wake;
    if (wake === undefined) return;
    this.wake = undefined;
    wake();
  }

  /**
   * Settles the exchange with a failure. The error is built when the consumer receives it, so
   * that its `partialOutput` says whether the consumer had body bytes by then.
   */
  private fail(errorOf: ErrorFactory, closeWire: boolean, isAbort = false): void {
    const stage = this.stage;
    if (stage === DONE) return;
    this.settle();
    if (closeWire) this.control?.abort(new AbortError('voxroute closed the connection'));
    if (stage === REQUEST) {
      this.rejectResponse(errorOf(false));
      return;
    }
    if (stage === ERROR_BODY) {
      // The status is the better explanation, unless the caller aborted.
      this.rejectResponse(isAbort ? errorOf(false) : this.statusError());
      return;
    }
    this.failureOf = errorOf;
    // Nothing is delivered after an abort; data received before another failure still is.
    if (isAbort) this.dropQueue();
    if (this.waitReject !== undefined) {
      const reject = this.waitReject;
      this.waitResolve = undefined;
      this.waitReject = undefined;
      reject(this.takeFailure());
    }
    this.wakeReader();
  }

  private settle(): void {
    this.stage = DONE;
    this.deadlines.stop();
    if (this.endTimer !== undefined) {
      this.settings.clock.clearTimeout(this.endTimer);
      this.endTimer = undefined;
    }
    if (this.errorTimer !== undefined) {
      this.settings.clock.clearTimeout(this.errorTimer);
      this.errorTimer = undefined;
    }
    this.signal?.removeEventListener('abort', this.onAbort);
    this.settings.onSettled?.(this);
  }

  private dropQueue(): void {
    this.queue.length = 0;
    this.head = 0;
    this.queued = 0;
  }

  private collectErrorBody(chunk: Uint8Array): void {
    const room = this.settings.maxErrorBodyBytes - this.errorBytes;
    const part = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
    this.errorChunks?.push(part);
    this.errorBytes += part.byteLength;
    // Enough for the message: discard the rest by closing the connection (C23).
    if (this.errorBytes >= this.settings.maxErrorBodyBytes) this.finishErrorBody(true);
  }

  /**
   * Starts the error-body deadline: the body must end within {@link errorBodyDeadlineMs} of the
   * status (not renewed by chunks, so a body that trickles is bounded too). When it passes, the
   * connection is closed (the rest of the body is not waited for, the socket not reused) and the
   * status error is built from the part that arrived.
   */
  private armErrorBodyDeadline(): void {
    this.errorTimer = this.settings.clock.setTimeout(
      this.onErrorBodyStall,
      errorBodyDeadlineMs(this.request.deadlines?.idleMs),
    );
  }

  private readonly onErrorBodyStall = (): void => {
    this.errorTimer = undefined;
    this.finishErrorBody(true, 'voxroute stopped waiting for the rest of an error body');
  };

  private finishErrorBody(closeWire: boolean, reason = 'voxroute discarded the rest of an error body'): void {
    if (this.stage !== ERROR_BODY) return;
    this.settle();
    if (closeWire) this.control?.abort(new AbortError(reason));
    this.rejectResponse(this.statusError());
  }

  private statusError(): VoxrouteError {
    const chunks = this.errorChunks ?? [];
    return providerErrorFromStatus({
      provider: this.request.provider,
      status: this.status,
      headers: this.headers,
      bodyText: this.errorBodyText(chunks),
      requestHeaders: this.request.headers,
    });
  }

  /** An error body as text; an encoded one (gzip, ...) is described, not shown as bytes. */
  private errorBodyText(chunks: Uint8Array[]): string {
    const coding = undecodedCoding(this.headers, this.isFetch);
    const body = Buffer.concat(chunks);
    if (coding === undefined) return new TextDecoder().decode(body);
    return `(a ${coding}-encoded body of ${body.byteLength} bytes, not decoded)`;
  }

  /** The body length the response declares, or -1 when it cannot be checked. */
  private declaredLength(status: number, headers: Record<string, string>): number {
    if (this.request.method === 'HEAD' || NO_STATUS_BODY.has(status)) return -1;
    const encoding = headers['content-encoding'];
    // fetch decodes compressed bodies: their length is not the declared one.
    if (this.isFetch && encoding !== undefined && encoding !== 'identity') return -1;
    const value = headers['content-length'];
    return value !== undefined && /^\d+$/.test(value) ? Number(value) : -1;
  }
}
