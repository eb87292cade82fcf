import { sameFormat } from '../audio/format.js';
import { type AudioConverter, createAudioConverter, SampleFramer } from '../audio/index.js';
import { ProtocolError } from '../errors/protocol-error.js';
import type { ProviderAudio, WordTiming } from '../providers/types.js';
import type { AudioChunk, AudioFormat } from '../types/audio.js';

/** Called when a provider's stream ended with bytes that do not make a whole sample. */
export type DroppedBytesListener = (droppedBytes: number, format: AudioFormat) => void;

/**
 * Turns a provider's raw audio into chunks of whole samples in the caller's format `want`,
 * one provider chunk at a time, as a plain call in the stage that reads the provider (no
 * stage of its own): re-frames split samples, and converts encoding and sample rate when the
 * provider's real format (as each chunk states it; bytes are never relabelled) differs. A
 * format change mid-stream flushes the old converter first. Word timestamps the provider
 * sends are pushed to `words` when given. One instance per provider request.
 */
export class CallerAudio {
  #framer: SampleFramer | undefined;
  #converter: AudioConverter | undefined;
  #current: AudioFormat | undefined;
  /** Audio reached the caller: at least one whole sample (a stray partial one is none). */
  #produced = false;
  /** Stray bytes (less than one sample) dropped at segment ends, for the no-audio error. */
  #strayBytes = 0;

  constructor(
    readonly want: AudioFormat,
    readonly provider: string,
    readonly onDropped?: DroppedBytesListener,
    readonly words?: WordTiming[],
  ) {}

  /**
   * Takes one provider chunk; `emit` gets each caller chunk it completes (none, one, or the
   * old format's tail and one at a format change). Returns a promise only when the chunk
   * starts a format that needs a converter (created first); else completes synchronously.
   */
  push(chunk: ProviderAudio, emit: (out: AudioChunk) => void): void | Promise<void> {
    if (this.words && chunk.words) this.words.push(...chunk.words);
    if (chunk.data.byteLength === 0) return;
    const current = this.#current;
    if (current === undefined || !sameFormat(current, chunk.format)) {
      this.#endSegment(emit);
      this.#current = chunk.format;
      this.#framer = new SampleFramer(chunk.format);
      // Formats that match need no converter: the whole samples go out as they are.
      if (!sameFormat(chunk.format, this.want)) return this.#convertFrom(chunk, emit);
    }
    this.#pass(chunk.data, emit);
  }

  /**
   * The provider's stream ended: emits what the framer and converter still hold. Throws
   * ProtocolError when the provider ended without a single whole sample of audio for the
   * caller: no byte at all, or only a stray partial sample (one byte of PCM s16le), which
   * is dropped, never padded. Such an answer is empty, as one with no byte is.
   */
  end(emit: (out: AudioChunk) => void): void {
    this.#endSegment(emit);
    if (this.#produced) return;
    const stray = this.#strayBytes;
    const what =
      stray > 0 ? ` (only ${stray} stray byte${stray === 1 ? '' : 's'}, less than one sample)` : '';
    throw new ProtocolError(`Provider '${this.provider}' returned no audio${what}`, {
      provider: this.provider,
    });
  }

  /** Releases the converter (idempotent); call however the stream ended. */
  close(): void {
    this.#converter?.close();
    this.#converter = undefined;
  }

  async #convertFrom(chunk: ProviderAudio, emit: (out: AudioChunk) => void): Promise<void> {
    this.#converter = await createAudioConverter(chunk.format, this.want);
    this.#pass(chunk.data, emit);
  }

  #pass(data: Uint8Array, emit: (out: AudioChunk) => void): void {
    const whole = this.#framer!.push(data);
    if (whole.byteLength === 0) return;
    const converter = this.#converter;
    const out = converter ? converter.push(whole) : whole;
    if (out.byteLength > 0) this.#emit(out, emit);
  }

  /** Hands `data` to the caller: only what is emitted counts as audio produced. */
  #emit(data: Uint8Array, emit: (out: AudioChunk) => void): void {
    this.#produced = true;
    emit({ data, format: this.want });
  }

  #endSegment(emit: (out: AudioChunk) => void): void {
    const current = this.#current;
    if (this.#framer && current) {
      const { droppedBytes } = this.#framer.end();
      if (droppedBytes > 0) {
        this.#strayBytes += droppedBytes;
        this.onDropped?.(droppedBytes, current);
      }
    }
    const converter = this.#converter;
    if (converter) {
      this.#converter = undefined;
      const tail = converter.flush();
      converter.close();
      if (tail.byteLength > 0) this.#emit(tail, emit);
    }
  }
}

/**
 * {@link CallerAudio} as a stream of its own, for a reader that is itself an async generator
 * (the streamed-text attempt). Throws ProtocolError when the provider ended without a single
 * whole sample of audio (no byte, or only a stray partial sample).
 */
export async function* toCallerAudio(
  source: AsyncIterable<ProviderAudio>,
  want: AudioFormat,
  provider: string,
  onDropped?: DroppedBytesListener,
  words?: WordTiming[],
): AsyncGenerator<AudioChunk, void, undefined> {
  const audio = new CallerAudio(want, provider, onDropped, words);
  const out: AudioChunk[] = [];
  const emit = (chunk: AudioChunk) => {
    out.push(chunk);
  };
  try {
    for await (const chunk of source) {
      const converting = audio.push(chunk, emit);
      try {
        if (converting) await converting;
      } finally {
        // The old format's tail goes out even when the new format's converter failed.
        while (out.length > 0) yield out.shift()!;
      }
    }
    audio.end(emit);
    while (out.length > 0) yield out.shift()!;
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
