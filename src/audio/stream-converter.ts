import type { AbortSource } from '../internal/abort-link.js';
import type { AudioEncoding } from '../types/audio.js';
import type { AudioConverter } from './audio-converter.js';
import { decodeG711Into, encodeG711FromS16 } from './pcm-codec.js';
import type { ResampleThread, ThreadSink } from './resample-thread.js';

/**
 * The converter of one provider stream as the router drives it: outputs go to the `deliver`
 * given at creation, synchronously (on the event loop) or later (from the resampler's worker
 * thread), always in order.
 */
export interface StreamConverter {
  /** True when this stream resamples on the worker thread. */
  readonly threaded: boolean;
  /**
   * Converts whole samples of the stream's input format; the output reaches `deliver` now
   * (inline) or once the worker answered (threaded).
   * @throws the stream's AudioConversionError once the worker failed it; Error after close().
   */
  push(data: Uint8Array): void;
  /** Ends the stream: delivers the tail. A promise when threaded (rejects with the stream's error). */
  flush(): void | Promise<void>;
  /**
   * A promise that resolves once everything pushed so far has been delivered (rejects with
   * the stream's error), or undefined when nothing is on its way.
   */
  settled(): Promise<void> | undefined;
  /** Releases the stream (idempotent); outputs still on their way are dropped, never delivered. */
  close(): void;
}

/** A {@link StreamConverter} on the event loop: an AudioConverter whose outputs are delivered at once. */
export class InlineConverter implements StreamConverter {
  readonly threaded = false;
  readonly #converter: AudioConverter;
  readonly #deliver: (data: Uint8Array) => void;
  #release: (() => void) | undefined;

  /** `release()` runs once, at close(). */
  constructor(converter: AudioConverter, deliver: (data: Uint8Array) => void, release?: () => void) {
    this.#converter = converter;
    this.#deliver = deliver;
    this.#release = release;
  }
  push(data: Uint8Array): void {
    const out = this.#converter.push(data);
    if (out.byteLength > 0) this.#deliver(out);
  }
  flush(): void {
    const tail = this.#converter.flush();
    if (tail.byteLength > 0) this.#deliver(tail);
  }
  settled(): undefined {
    return undefined;
  }
  close(): void {
    this.#converter.close();
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }
}

/**
 * A {@link StreamConverter} on the resampler's worker thread ({@link ResampleThread}): the worker
 * resamples PCM s16le; mu-law and A-law input is decoded to it here, and output encoded from
 * it here (through the same tables as the inline int16 path, so the bytes are the same). After
 * `signal` aborted, nothing more is delivered (no stale audio after a barge-in).
 */
export class ThreadedConverter implements StreamConverter, ThreadSink {
  readonly threaded = true;
  readonly #thread: ResampleThread;
  readonly #id: number;
  readonly #from: AudioEncoding;
  readonly #to: AudioEncoding;
  readonly #deliver: (data: Uint8Array) => void;
  readonly #signal: AbortSource | undefined;
  #release: (() => void) | undefined;
  /** Pushes and flushes not answered yet. */
  #pending = 0;
  #error: Error | undefined;
  #closed = false;
  #waiter: { resolve: () => void; reject: (error: Error) => void; promise: Promise<void> } | undefined;

  /**
   * Opens a stream on `thread` (started) from `from` to `to` (pcm_s16le, mulaw or alaw, rates
   * checked by the caller) at Speex `quality`. `release()` runs once, at close().
   */
  constructor(
    thread: ResampleThread,
    from: { encoding: AudioEncoding; sampleRate: number },
    to: { encoding: AudioEncoding; sampleRate: number },
    quality: number,
    deliver: (data: Uint8Array) => void,
    signal?: AbortSource,
    release?: () => void,
  ) {
    this.#thread = thread;
    this.#from = from.encoding;
    this.#to = to.encoding;
    this.#deliver = deliver;
    this.#signal = signal;
    this.#release = release;
    this.#id = thread.open(from.sampleRate, to.sampleRate, quality, this);
  }

  push(data: Uint8Array): void {
    if (this.#error) throw this.#error;
    if (this.#closed) throw new Error('AudioConverter is closed');
    const from = this.#from;
    if (from === 'mulaw' || from === 'alaw') {
      const s16 = new Int16Array(data.byteLength);
      decodeG711Into(data, from, s16, 0);
      this.#thread.push(this.#id, new Uint8Array(s16.buffer));
    } else this.#thread.push(this.#id, data);
    this.#pending++;
  }

  flush(): Promise<void> {
    if (this.#error) return Promise.reject(this.#error);
    this.#thread.flush(this.#id);
    this.#pending++;
    return this.#wait();
  }

  settled(): Promise<void> | undefined {
    if (this.#error) return Promise.reject(this.#error);
    return this.#pending === 0 ? undefined : this.#wait();
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#thread.close(this.#id);
    const release = this.#release;
    this.#release = undefined;
    release?.();
    // Nothing more will come: whoever waits stops waiting.
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.resolve();
  }

  /** {@link ThreadSink}: the output of one push. */
  output(data: Uint8Array): void {
    this.#answered(data);
  }

  /** {@link ThreadSink}: the tail of a flush. */
  tail(data: Uint8Array): void {
    this.#answered(data);
  }

  /** {@link ThreadSink}: the stream (or the thread) failed. */
  fail(error: Error): void {
    if (this.#error) return;
    this.#error = error;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.reject(error);
  }

  #answered(data: Uint8Array): void {
    this.#pending--;
    if (!this.#closed && data.byteLength > 0 && !this.#signal?.aborted) {
      try {
        const to = this.#to;
        this.#deliver(
          to === 'mulaw' || to === 'alaw'
            ? encodeG711FromS16(
                new Int16Array(data.buffer, data.byteOffset, data.byteLength >> 1),
                0,
                data.byteLength >> 1,
                to,
              )
            : // A copy: a view would keep the whole batch's reply buffer (every stream's
              // output of that turn) alive for as long as the caller keeps this chunk.
              data.slice(),
        );
      } catch (error) {
        this.fail(error instanceof Error ? error : new Error(String(error)));
        return;
      }
    }
    if (this.#pending === 0) {
      const waiter = this.#waiter;
      this.#waiter = undefined;
      waiter?.resolve();
    }
  }

  #wait(): Promise<void> {
    if (this.#waiter) return this.#waiter.promise;
    let resolve!: () => void;
    let reject!: (error: Error) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.#waiter = { resolve, reject, promise };
    return promise;
  }
}
