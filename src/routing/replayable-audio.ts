import { sameFormat } from '../audio/format.js';
import { RequestError } from '../errors/request-error.js';
import type { AudioChunk, AudioFormat } from '../types/audio.js';
import { callerFailure } from './tts-progress.js';

/**
 * The caller's STT audio, read once from its iterator and kept, so that another provider can
 * hear it again: from the start when the first one failed before any transcript, or from the
 * end of the last final transcript when it failed mid-utterance (midStream 'replay').
 * `trimBefore` drops what is no longer needed (audio before the last final), so memory stays
 * bounded by the audio since the last final. Each `reader()` replays what was kept from a byte
 * offset, then goes on with live audio. Chunks given as AudioChunk must be in the request's
 * `format` (a VoxrouteError otherwise).
 */
export class ReplayableAudio {
  readonly #source: AsyncIterator<Uint8Array | AudioChunk>;
  readonly #format: AudioFormat;
  /** Kept chunks, each with the byte offset of its first byte in the caller's stream. */
  readonly #kept: { offset: number; data: Uint8Array }[] = [];
  /** Bytes read from the caller so far. */
  #total = 0;
  #done = false;
  #failure: { error: RequestError } | undefined;
  #pull: Promise<void> | undefined;

  constructor(source: AsyncIterable<Uint8Array | AudioChunk>, format: AudioFormat) {
    this.#source = source[Symbol.asyncIterator]();
    this.#format = format;
  }

  /** Bytes kept now (after trimming). */
  get keptBytes(): number {
    let n = 0;
    for (const c of this.#kept) n += c.data.byteLength;
    return n;
  }

  /** Bytes read from the caller so far. */
  get totalBytes(): number {
    return this.#total;
  }

  /** Drops kept audio that ends before byte `offset` of the caller's stream. */
  trimBefore(offset: number): void {
    while (this.#kept.length && this.#kept[0]!.offset + this.#kept[0]!.data.byteLength <= offset)
      this.#kept.shift();
  }

  /**
   * A new reader from byte `from` (default 0; trimmed audio is no longer there, so reading
   * starts at the first byte kept at or after it). It ends when the caller's audio ends, or
   * when `signal` aborts.
   */
  async *reader(signal?: AbortSignal, from = 0): AsyncGenerator<Uint8Array, void, undefined> {
    let position = from;
    for (;;) {
      if (signal?.aborted) return;
      const chunk = this.#kept.find((c) => c.offset + c.data.byteLength > position);
      if (chunk) {
        const start = Math.max(0, position - chunk.offset);
        position = chunk.offset + chunk.data.byteLength;
        yield start === 0 ? chunk.data : chunk.data.subarray(start);
        continue;
      }
      if (this.#failure) throw this.#failure.error;
      if (this.#done) return;
      this.#pull ??= this.#next().finally(() => {
        this.#pull = undefined;
      });
      await this.#pull;
    }
  }

  /** The caller's audio stream failed (threw, or gave a non-audio item): that failure, as a RequestError. */
  get failure(): RequestError | undefined {
    return this.#failure?.error;
  }

  /** Stops reading the caller's iterator (calls its `return()`). */
  async close(): Promise<void> {
    if (this.#done) return;
    this.#done = true;
    await this.#source.return?.();
  }

  async #next(): Promise<void> {
    try {
      const r = await this.#source.next();
      if (r.done) {
        this.#done = true;
        return;
      }
      const value = r.value;
      let data: Uint8Array;
      if (value instanceof Uint8Array) data = value;
      else if (!isAudioChunk(value))
        throw new RequestError(
          'audio',
          'an item of the audio stream is neither a Uint8Array nor an AudioChunk',
        );
      else if (sameFormat(value.format, this.#format)) data = value.data;
      else throw new RequestError('audio', 'an AudioChunk of the audio stream is not in the request format');
      if (data.byteLength > 0) {
        this.#kept.push({ offset: this.#total, data });
        this.#total += data.byteLength;
      }
    } catch (error) {
      this.#failure = { error: callerFailure('audio', error) };
    }
  }
}

function isAudioChunk(value: unknown): value is AudioChunk {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<AudioChunk>;
  return v.data instanceof Uint8Array && typeof v.format === 'object' && v.format !== null;
}
