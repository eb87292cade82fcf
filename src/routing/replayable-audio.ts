import { sameFormat } from '../audio/format.js';
import { VoxrouteError } from '../errors/voxroute-error.js';
import type { AudioChunk, AudioFormat } from '../types/audio.js';

/**
 * The caller's STT audio, read once from its iterator and kept, so that an attempt that
 * failed before its first transcript can be replaced by another that hears the same audio
 * from the start. Each `reader()` replays what was kept, then goes on with live audio.
 * Chunks given as AudioChunk must be in the request's `format` (a VoxrouteError otherwise).
 */
export class ReplayableAudio {
  readonly #source: AsyncIterator<Uint8Array | AudioChunk>;
  readonly #format: AudioFormat;
  readonly #kept: Uint8Array[] = [];
  #done = false;
  #failure: { error: unknown } | undefined;
  #pull: Promise<void> | undefined;

  constructor(source: AsyncIterable<Uint8Array | AudioChunk>, format: AudioFormat) {
    this.#source = source[Symbol.asyncIterator]();
    this.#format = format;
  }

  /** Bytes kept so far. */
  get keptBytes(): number {
    let n = 0;
    for (const c of this.#kept) n += c.byteLength;
    return n;
  }

  /** A new reader from the first byte; it ends when the caller's audio ends, or when `signal` aborts. */
  async *reader(signal?: AbortSignal): AsyncGenerator<Uint8Array, void, undefined> {
    let i = 0;
    for (;;) {
      if (signal?.aborted) return;
      if (i < this.#kept.length) {
        yield this.#kept[i++]!;
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
      if (value instanceof Uint8Array) {
        if (value.byteLength > 0) this.#kept.push(value);
        return;
      }
      if (!sameFormat(value.format, this.#format)) {
        throw new VoxrouteError('An AudioChunk of stt() audio is not in the request format');
      }
      if (value.data.byteLength > 0) this.#kept.push(value.data);
    } catch (error) {
      this.#failure = { error };
    }
  }
}
