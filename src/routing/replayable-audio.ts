import { containerOf } from '../audio/container-sniff.js';
import { formatLabel, sameFormat } from '../audio/format.js';
import { isWavHeader, WAV_SNIFF_BYTES } from '../audio/wav-sniff.js';
import type { ErrorRedactor } from '../errors/redact.js';
import { RequestError } from '../errors/request-error.js';
import type { AbortSource } from '../internal/abort-link.js';
import type { AudioChunk, AudioFormat } from '../types/audio.js';
import { describeStreamItem } from './stream-item.js';
import { callerFailure } from './tts-progress.js';

/**
 * The caller's STT audio, read once from its iterator and kept, so that another provider can
 * hear it again: from the start when the first one failed before any transcript, or from the
 * end of the last final transcript when it failed mid-utterance (midStream 'replay').
 * `trimBefore` drops what is no longer needed (audio before the last final), so memory stays
 * bounded by the audio since the last final. Each `reader()` replays what was kept from a byte
 * offset, then goes on with live audio. Chunks given as AudioChunk must be in the request's
 * `format`, and audio that starts with a WAV file's header (`RIFF....WAVE`) is a WAV file given
 * as raw samples (a RequestError on `audio` for each).
 *
 * Cost is linear in the audio: a reader finds its start once (binary search) and then walks
 * the kept chunks by index, and trimming advances a head index (the array is compacted when
 * more than half of it is dropped), so no chunk is scanned again per chunk read.
 */
export class ReplayableAudio {
  readonly #source: AsyncIterator<Uint8Array | AudioChunk>;
  readonly #format: AudioFormat;
  /**
   * Kept chunks, each with the byte offset of its first byte in the caller's stream and the
   * time it was read (`at`, ms of `#now`), from index `#head` on (the entries before it are
   * trimmed and wait for compaction).
   */
  #kept: { offset: number; data: Uint8Array; at: number }[] = [];
  #head = 0;
  /** Chunks compacted away from the front of `#kept` so far: chunk `i` of the stream is `#kept[i - #base]`. */
  #base = 0;
  /** Bytes read from the caller so far. */
  #total = 0;
  /** Byte offset of the first kept byte (= #total when nothing is kept). */
  #keptFrom = 0;
  #done = false;
  /** The caller's iterator said done (not merely closed by us). */
  #ended = false;
  #failure: { error: RequestError } | undefined;
  #pull: Promise<void> | undefined;
  readonly #redact: ErrorRedactor | undefined;
  readonly #now: () => number;
  #lastReadAt: number | undefined;

  /**
   * `redact`: the router's redactor, applied to an error of the caller's audio (see
   * callerFailure). `now`: the clock that stamps each chunk as it is read (see
   * {@link readAt}), in ms; default performance.now().
   */
  constructor(
    source: AsyncIterable<Uint8Array | AudioChunk>,
    format: AudioFormat,
    redact?: ErrorRedactor,
    now: () => number = () => performance.now(),
  ) {
    this.#source = source[Symbol.asyncIterator]();
    this.#format = format;
    this.#redact = redact;
    this.#now = now;
  }

  /**
   * When the audio up to byte `offset` of the caller's stream had all been read: the read time
   * of the chunk that holds byte `offset - 1`, or of the last chunk read when `offset` lies
   * beyond what was read; undefined when `offset` is 0 or less, or that byte was trimmed.
   */
  readAt(offset: number): number | undefined {
    const kept = this.#kept;
    if (offset <= 0 || offset <= this.#keptFrom || this.#head >= kept.length) return undefined;
    if (offset >= this.#total) return kept[kept.length - 1]!.at;
    return kept[this.#firstEndingAfter(offset - 1)]!.at;
  }

  /** When the last chunk was read (ms of the clock given), trimmed or not; undefined before any. */
  get lastReadAt(): number | undefined {
    return this.#lastReadAt;
  }

  /** Bytes kept now (after trimming). */
  get keptBytes(): number {
    return this.#total - this.#keptFrom;
  }

  /** Bytes read from the caller so far. */
  get totalBytes(): number {
    return this.#total;
  }

  /** Drops kept audio that ends before byte `offset` of the caller's stream. */
  trimBefore(offset: number): void {
    const kept = this.#kept;
    while (this.#head < kept.length) {
      const c = kept[this.#head]!;
      if (c.offset + c.data.byteLength > offset) break;
      this.#head++;
    }
    this.#keptFrom = this.#head < kept.length ? kept[this.#head]!.offset : this.#total;
    // Compact once more than half is dropped: each entry is moved O(1) times on average.
    if (this.#head > 64 && this.#head * 2 > kept.length) {
      this.#kept = kept.slice(this.#head);
      this.#base += this.#head;
      this.#head = 0;
    }
  }

  /**
   * A new reader from byte `from` (default 0; trimmed audio is no longer there, so reading
   * starts at the first byte kept at or after it). It ends when the caller's audio ends, or
   * when `signal` aborts.
   */
  async *reader(signal?: AbortSource, from = 0): AsyncGenerator<Uint8Array, void, undefined> {
    let position = from;
    /** Stream index of the next chunk to look at (see #base). */
    let next = this.#base + this.#firstEndingAfter(from);
    for (;;) {
      if (signal?.aborted) return;
      // Audio trimmed meanwhile is no longer there: go on from the first chunk kept.
      next = Math.max(next, this.#base + this.#head);
      const chunk = this.#kept[next - this.#base];
      if (chunk) {
        next++;
        const end = chunk.offset + chunk.data.byteLength;
        if (end <= position) continue;
        const start = Math.max(0, position - chunk.offset);
        position = end;
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

  /**
   * Waits until the caller's stream has more than `offset` bytes (true) or has ended with no
   * more (false); false too when `signal` aborts. Throws the caller's stream failure.
   */
  async readBeyond(offset: number, signal?: AbortSource): Promise<boolean> {
    for (;;) {
      if (this.#total > offset) return true;
      if (this.#failure) throw this.#failure.error;
      if (this.#done || signal?.aborted) return false;
      this.#pull ??= this.#next().finally(() => {
        this.#pull = undefined;
      });
      await this.#pull;
    }
  }

  /**
   * Whether every byte read from byte `offset` on (up to what was read so far) passes `test`,
   * chunk by chunk (the first chunk from `offset` on only). True when nothing was read beyond
   * `offset`. Trimmed audio is not looked at.
   */
  everyFrom(offset: number, test: (bytes: Uint8Array) => boolean): boolean {
    const kept = this.#kept;
    for (let i = this.#firstEndingAfter(offset); i < kept.length; i++) {
      const c = kept[i]!;
      const start = Math.max(0, offset - c.offset);
      if (!test(start === 0 ? c.data : c.data.subarray(start))) return false;
    }
    return true;
  }

  /** True once the caller's audio stream has ended (its iterator said done): no more audio comes. */
  get ended(): boolean {
    return this.#ended;
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

  /**
   * Looks at the first {@link WAV_SNIFF_BYTES} bytes of the caller's audio (called while fewer
   * were read, with the chunk about to be kept): a WAV file's header there is a RequestError,
   * and so is another container's (MP3 with an ID3 tag, Ogg, FLAC, WebM: see containerOf).
   */
  #sniffWav(data: Uint8Array): void {
    const need = WAV_SNIFF_BYTES - this.#total;
    const head = new Uint8Array(WAV_SNIFF_BYTES);
    let at = 0;
    for (let i = this.#head; i < this.#kept.length; i++) {
      const c = this.#kept[i]!.data;
      head.set(c.subarray(0, WAV_SNIFF_BYTES - at), at);
      at += Math.min(c.byteLength, WAV_SNIFF_BYTES - at);
    }
    if (data.byteLength < need) return;
    head.set(data.subarray(0, need), at);
    if (isWavHeader(head)) throw wavGivenAsRaw();
    // A RIFF header that is no WAV's stays audio: raw samples may start with `RIFF`.
    const container = containerOf(head, false);
    if (container !== undefined) throw fileGivenAsRaw(container);
  }

  /** Index in `#kept` of the first kept chunk that ends after byte `offset` (binary search; `#kept.length` when none). */
  #firstEndingAfter(offset: number): number {
    const kept = this.#kept;
    let lo = this.#head;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = kept[mid]!;
      if (c.offset + c.data.byteLength > offset) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  async #next(): Promise<void> {
    try {
      const r = await this.#source.next();
      if (r.done) {
        this.#done = true;
        this.#ended = true;
        return;
      }
      const value = r.value;
      let data: Uint8Array;
      if (value instanceof Uint8Array) data = value;
      else if (!isAudioChunk(value))
        throw new RequestError(
          'audio',
          `an item of the audio stream is neither a Uint8Array nor an AudioChunk: got ${describeStreamItem(value, 'audio')}`,
        );
      else if (sameFormat(value.format, this.#format)) data = value.data;
      else
        throw new RequestError(
          'audio',
          `an AudioChunk of the audio stream is ${formatLabel(value.format)}, not the request format ${formatLabel(this.#format)} (convert it with createAudioConverter)`,
        );
      if (this.#total < WAV_SNIFF_BYTES && data.byteLength > 0) this.#sniffWav(data);
      if (data.byteLength > 0) {
        const at = this.#now();
        this.#lastReadAt = at;
        this.#kept.push({ offset: this.#total, data, at });
        this.#total += data.byteLength;
      }
    } catch (error) {
      this.#failure = { error: callerFailure('audio', error, this.#redact) };
    }
  }
}

/** The start of a WAV file given as raw samples: the caller meant readWav. */
function wavGivenAsRaw(): RequestError {
  return new RequestError(
    'audio',
    "the audio starts with a WAV file header (RIFF....WAVE), but stt takes raw samples in the request's format: read the file with readWav() and pass its data and format",
  );
}

function fileGivenAsRaw(container: string): RequestError {
  return new RequestError(
    'audio',
    `the audio starts like an encoded file (${container}), but stt takes raw samples in the request's format (PCM, mu-law or A-law): decode it first`,
  );
}

function isAudioChunk(value: unknown): value is AudioChunk {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<AudioChunk>;
  return v.data instanceof Uint8Array && typeof v.format === 'object' && v.format !== null;
}
