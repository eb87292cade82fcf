import { unconvertibleRate } from '../audio/convertible-rate.js';
import { sameFormat } from '../audio/format.js';
import { SampleFramer } from '../audio/index.js';
import type { ResampleOffload } from '../audio/resample-offload.js';
import { streamAudioConverter } from '../audio/stream-audio-converter.js';
import { InlineConverter, type StreamConverter } from '../audio/stream-converter.js';
import { ProtocolError } from '../errors/protocol-error.js';
import type { AbortSource } from '../internal/abort-link.js';
import type { ProviderAudio, WordTiming } from '../providers/types.js';
import type { AudioChunk, AudioFormat } from '../types/audio.js';

/** Called when a provider's stream ended with bytes that do not make a whole sample. */
export type DroppedBytesListener = (droppedBytes: number, format: AudioFormat) => void;

/** Where a stream's conversions run (see ResampleOffload), and the signal after whose abort none is delivered. */
export interface ConversionContext {
  offload: ResampleOffload | undefined;
  signal: AbortSource | undefined;
}

/**
 * Turns a provider's raw audio into chunks of whole samples in the caller's format `want`,
 * one provider chunk at a time, as a plain call in the stage that reads the provider (no
 * stage of its own): re-frames split samples, and converts encoding and sample rate when the
 * provider's real format (as each chunk states it; bytes are never relabelled) differs. A
 * format change mid-stream flushes the old converter first. Word timestamps the provider
 * sends are pushed to `words` when given. One instance per provider request.
 *
 * With a `conversion.offload`, a stream that resamples may do so on the router's worker thread
 * (ResampleOffload decides when it starts): its chunks then reach `emit` later, in order,
 * between calls (the `emit` of the call that created the converter; callers pass the same
 * one every time), {@link end} returns a promise that resolves once the tail was emitted, and
 * {@link settled} tells when everything pushed so far was emitted.
 */
export class CallerAudio {
  #framer: SampleFramer | undefined;
  #converter: StreamConverter | undefined;
  #current: AudioFormat | undefined;
  /** Audio reached the caller: at least one whole sample (a stray partial one is none). */
  #produced = false;
  /** Stray bytes (less than one sample) dropped at segment ends, for the no-audio error. */
  #strayBytes = 0;
  #closed = false;
  /** Where a converter's outputs go: the `emit` given with the chunk that created it. */
  #sink: ((out: AudioChunk) => void) | undefined;
  readonly #deliver = (data: Uint8Array): void => this.#emit(data, this.#sink!);

  constructor(
    readonly want: AudioFormat,
    readonly provider: string,
    readonly onDropped?: DroppedBytesListener,
    readonly words?: WordTiming[],
    readonly conversion?: ConversionContext,
  ) {}

  /**
   * Takes one provider chunk; `emit` gets each caller chunk it completes (none, one, or the
   * old format's tail and one at a format change). Returns a promise only when the chunk
   * starts a format that needs a converter (created first), or ends a segment converted on the
   * worker thread (its tail comes first); else completes synchronously.
   */
  push(chunk: ProviderAudio, emit: (out: AudioChunk) => void): void | Promise<void> {
    if (this.words && chunk.words) this.words.push(...chunk.words);
    if (chunk.data.byteLength === 0) return;
    const current = this.#current;
    if (current === undefined || !sameFormat(current, chunk.format)) {
      const ended = this.#endSegment(emit);
      if (ended) return ended.then(() => this.#begin(chunk, emit));
      return this.#begin(chunk, emit);
    }
    this.#pass(chunk.data, emit);
  }

  /**
   * The provider's stream ended: emits what the framer and converter still hold (a promise
   * when the converter runs on the worker thread). Throws (rejects with) ProtocolError when the
   * provider ended without a single whole sample of audio for the caller: no byte at all, or
   * only a stray partial sample (one byte of PCM s16le), which is dropped, never padded. Such
   * an answer is empty, as one with no byte is.
   */
  end(emit: (out: AudioChunk) => void): void | Promise<void> {
    const ended = this.#endSegment(emit);
    if (ended) return ended.then(() => this.#checkProduced());
    this.#checkProduced();
  }

  /** Resolves once every output pushed so far was emitted; undefined when none is on its way. */
  settled(): Promise<void> | undefined {
    return this.#converter?.settled();
  }

  /** Releases the converter (idempotent); call however the stream ended. */
  close(): void {
    this.#closed = true;
    this.#converter?.close();
    this.#converter = undefined;
  }

  #checkProduced(): void {
    if (this.#produced) return;
    const stray = this.#strayBytes;
    const what =
      stray > 0 ? ` (only ${stray} stray byte${stray === 1 ? '' : 's'}, less than one sample)` : '';
    throw new ProtocolError(`Provider '${this.provider}' returned no audio${what}`, {
      provider: this.provider,
    });
  }

  /** A segment of `chunk`'s format starts with it. */
  #begin(chunk: ProviderAudio, emit: (out: AudioChunk) => void): void | Promise<void> {
    this.#current = chunk.format;
    this.#framer = new SampleFramer(chunk.format);
    // Formats that match need no converter: the whole samples go out as they are.
    if (!sameFormat(chunk.format, this.want)) return this.#convertFrom(chunk, emit);
    this.#pass(chunk.data, emit);
  }

  async #convertFrom(chunk: ProviderAudio, emit: (out: AudioChunk) => void): Promise<void> {
    // A rate the resampler refuses (a WAV header or Content-Type saying 7 Hz or 384 kHz) is the
    // provider's fault, not a failure inside voxroute: a ProtocolError naming the rate.
    const problem = unconvertibleRate(chunk.format.sampleRate, this.want.sampleRate);
    if (problem !== undefined)
      throw new ProtocolError(`Provider '${this.provider}' sent audio with ${problem}`, {
        provider: this.provider,
        partialOutput: this.#produced,
      });
    this.#sink = emit;
    const conversion = this.conversion;
    const converter = conversion?.offload
      ? await conversion.offload.converter(chunk.format, this.want, this.#deliver, conversion.signal)
      : new InlineConverter(await streamAudioConverter(chunk.format, this.want), this.#deliver);
    if (this.#closed) {
      converter.close();
      return;
    }
    this.#converter = converter;
    this.#pass(chunk.data, emit);
  }

  #pass(data: Uint8Array, emit: (out: AudioChunk) => void): void {
    const whole = this.#framer!.push(data);
    if (whole.byteLength === 0) return;
    const converter = this.#converter;
    if (converter) {
      this.#sink = emit;
      converter.push(whole);
    } else this.#emit(whole, emit);
  }

  /** Hands `data` to the caller: only what is emitted counts as audio produced. */
  #emit(data: Uint8Array, emit: (out: AudioChunk) => void): void {
    this.#produced = true;
    emit({ data, format: this.want });
  }

  /** Ends the current segment: a promise when its converter's tail comes from the worker thread. */
  #endSegment(emit: (out: AudioChunk) => void): void | Promise<void> {
    const current = this.#current;
    if (this.#framer && current) {
      const { droppedBytes } = this.#framer.end();
      if (droppedBytes > 0) {
        this.#strayBytes += droppedBytes;
        this.onDropped?.(droppedBytes, current);
      }
    }
    const converter = this.#converter;
    if (!converter) return;
    this.#converter = undefined;
    this.#sink = emit;
    let flushed: void | Promise<void>;
    try {
      flushed = converter.flush();
    } catch (error) {
      converter.close();
      throw error;
    }
    if (!flushed) {
      converter.close();
      return;
    }
    return flushed.then(
      () => converter.close(),
      (error: unknown) => {
        converter.close();
        throw error;
      },
    );
  }
}

/**
 * {@link CallerAudio} as a stream of its own, for a reader that is itself an async generator
 * (the streamed-text attempt). Throws ProtocolError when the provider ended without a single
 * whole sample of audio (no byte, or only a stray partial sample). A chunk converted on the
 * worker thread is yielded once it is back, before the next provider chunk is read.
 * `onClausesDone(n, audioBytes)` is called with a provider item's `clausesDone` once every
 * chunk made of it and of the items before it was taken by the reader (it asked for the next
 * one): the audio of those clauses reached the caller (but for the few samples a resampler holds
 * back); `audioBytes` counts the provider's audio bytes up to that item. It may throw: the error
 * ends the stream (and closes the provider's).
 */
export async function* toCallerAudio(
  source: AsyncIterable<ProviderAudio>,
  want: AudioFormat,
  provider: string,
  onDropped?: DroppedBytesListener,
  words?: WordTiming[],
  conversion?: ConversionContext,
  onClausesDone?: (clauses: number, audioBytes: number) => void,
): AsyncGenerator<AudioChunk, void, undefined> {
  const audio = new CallerAudio(want, provider, onDropped, words, conversion);
  let audioBytes = 0;
  const out: AudioChunk[] = [];
  const emit = (chunk: AudioChunk) => {
    out.push(chunk);
  };
  try {
    for await (const chunk of source) {
      audioBytes += chunk.data.byteLength;
      const converting = audio.push(chunk, emit);
      try {
        if (converting) await converting;
        const settled = audio.settled();
        if (settled) await settled;
      } finally {
        // The old format's tail goes out even when the new format's converter failed.
        while (out.length > 0) yield out.shift()!;
      }
      if (chunk.clausesDone !== undefined) onClausesDone?.(chunk.clausesDone, audioBytes);
    }
    const ended = audio.end(emit);
    try {
      if (ended) await ended;
    } finally {
      while (out.length > 0) yield out.shift()!;
    }
  } finally {
    audio.close();
  }
}

/**
 * The format to ask a provider for: the caller's own when the provider makes it natively
 * (no conversion), else one at the caller's sample rate, else the provider's first choice.
 */
export function pickNativeFormat(offered: readonly AudioFormat[], want: AudioFormat): AudioFormat {
  return (
    offered.find((f) => sameFormat(f, want)) ??
    offered.find((f) => f.sampleRate === want.sampleRate) ??
    offered[0] ??
    want
  );
}
