import type { AbortSource } from '../internal/abort-link.js';
import type { AudioEncoding, AudioFormat } from '../types/audio.js';
import type { ResampleThread } from './resample-thread.js';
import { checkResampleRates, SPEEX_QUALITY } from './resampler.js';
import { streamAudioConverter } from './stream-audio-converter.js';
import { InlineConverter, type StreamConverter, ThreadedConverter } from './stream-converter.js';

/**
 * Default of the router option `resampleOffload`: the number of a router's TTS streams already
 * resampling at which the next one resamples on the worker thread. At 32 streams, resampling
 * on the event loop costs about 32 x 50 chunks/s x 5-6 µs = 0.8-1 % of a core: nothing a
 * single call or a few dozen notice, while every stream below it keeps its first chunk free of
 * a thread round trip (docs/decisions.md, "Resampling on a worker thread").
 */
export const DEFAULT_RESAMPLE_OFFLOAD = 32;

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Encodings the worker's int16 path serves (pcm_f32le stays on the event loop). */
function int16Path(encoding: AudioEncoding): boolean {
  return encoding === 'pcm_s16le' || encoding === 'mulaw' || encoding === 'alaw';
}

/**
 * Where a router's TTS streams resample: on the event loop while few of them do, on one worker
 * thread of the router's own from `threshold` up. Decided per stream when its converter is
 * made, so one stream never mixes the two. The thread is started by the first stream that
 * wants it (never at import or at createRouter), from the thread `makeThread` gives (the router's
 * loads the thread's code with its other background code); a stream that wants it waits for it to
 * start (once, about 30-60 ms), then every later one finds it running. When the thread cannot be
 * made or start, or has failed (its code could not be loaded, a runtime without eval workers, a
 * crash), streams resample on the event loop from then on (`warn` is told once). Only rate
 * changes between PCM s16le, mu-law and A-law go to the thread; other conversions, and
 * pass-through, never touch it.
 */
export class ResampleOffload {
  /** Streams resampling now (inline or threaded) at which the next one is threaded; false: never. */
  readonly threshold: number | false;
  readonly #warn: ((message: string, attributes?: Record<string, unknown>) => void) | undefined;
  #active = 0;
  #thread: ResampleThread | undefined;
  #making: Promise<ResampleThread> | undefined;
  #unavailable = false;
  #closed = false;
  readonly #makeThread: () => ResampleThread | Promise<ResampleThread>;

  /**
   * `makeThread`: the thread to start when one is first needed (called once; a rejection, e.g.
   * its code could not be loaded, counts as a thread that cannot start; tests give a faulty one).
   */
  constructor(
    makeThread: () => ResampleThread | Promise<ResampleThread>,
    threshold: number | false = DEFAULT_RESAMPLE_OFFLOAD,
    warn?: (message: string, attributes?: Record<string, unknown>) => void,
  ) {
    this.threshold = threshold;
    this.#warn = warn;
    this.#makeThread = makeThread;
  }

  /** The worker thread, once a stream wanted it (tests look at it). */
  get thread(): ResampleThread | undefined {
    return this.#thread;
  }

  /** Streams resampling now, on either path. */
  get active(): number {
    return this.#active;
  }

  /**
   * The converter of one stream from `from` to `to` (different formats, both checked), whose
   * outputs go to `deliver`; `signal`: the stream's, after whose abort nothing is delivered.
   * @throws (rejects) what createAudioConverter throws for formats it refuses; AudioConversionError
   *   when the resampler cannot be started (see streamAudioConverter).
   */
  async converter(
    from: AudioFormat,
    to: AudioFormat,
    deliver: (data: Uint8Array) => void,
    signal?: AbortSource,
  ): Promise<StreamConverter> {
    const resamples = from.sampleRate !== to.sampleRate;
    const offload = resamples && this.#wants(from, to);
    // Counted at once, before any await: streams that start together see each other.
    let counted = resamples;
    if (resamples) this.#active++;
    const release = () => {
      if (!counted) return;
      counted = false;
      this.#active--;
    };
    try {
      if (offload) {
        checkResampleRates(from.sampleRate, to.sampleRate);
        const thread = await this.#started();
        if (thread)
          return new ThreadedConverter(
            thread,
            from,
            to,
            SPEEX_QUALITY['sinc-fastest'],
            deliver,
            signal,
            release,
          );
      }
      return new InlineConverter(await streamAudioConverter(from, to), deliver, release);
    } catch (error) {
      release();
      throw error;
    }
  }

  /** Ends the worker thread, if one was started; streams on it fail with AbortError. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#thread?.terminate();
  }

  #wants(from: AudioFormat, to: AudioFormat): boolean {
    const threshold = this.threshold;
    if (threshold === false || this.#active < threshold || this.#closed || this.#unavailable) return false;
    if (!LITTLE_ENDIAN_HOST || !int16Path(from.encoding) || !int16Path(to.encoding)) return false;
    if ((from.channels ?? 1) !== 1 || (to.channels ?? 1) !== 1) return false;
    const broken = this.#thread?.broken;
    if (broken) {
      this.#giveUp(broken);
      return false;
    }
    return true;
  }

  /** The running thread (made and started now if need be), or undefined when it cannot be used. */
  async #started(): Promise<ResampleThread | undefined> {
    this.#making ??= Promise.resolve()
      .then(() => this.#makeThread())
      .then((made) => {
        this.#thread = made;
        return made;
      });
    let thread: ResampleThread;
    try {
      thread = await this.#making;
      // Closed while the thread was being made: it is never started (close() had none to end).
      if (this.#closed) return undefined;
      await thread.start();
    } catch (error) {
      this.#giveUp(error);
      return undefined;
    }
    return this.#closed || thread.broken ? undefined : thread;
  }

  #giveUp(error: unknown): void {
    if (this.#unavailable || this.#closed) return;
    this.#unavailable = true;
    this.#warn?.('The resampler worker thread is not available; resampling stays on the event loop', {
      error: String(error),
    });
  }
}
