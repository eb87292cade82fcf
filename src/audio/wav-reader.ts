import { ProtocolError } from '../errors/protocol-error.js';
import type { AudioFormat } from '../types/audio.js';
import { parseWavFmt } from './wav-fmt.js';

/** What one {@link WavReader.push} produced. */
export interface WavReadResult {
  /** The stream's format, once the header up to the `data` chunk has been read. */
  format?: AudioFormat;
  /**
   * Audio bytes of the `data` chunk found in this push (possibly empty), as they came: not
   * framed to whole samples (use SampleFramer). Often a view of the pushed bytes (no copy).
   */
  data: Uint8Array;
}

/** Data sizes at or above this (2 GiB - 4 KiB, written by espeak-ng/sox when streaming) are placeholders. */
const HUGE_PLACEHOLDER = 0x7ffff000;
/** The "unknown length" placeholder of streaming writers (also 0, see WavReader). */
const UNKNOWN_SIZE = 0xffffffff;
/** Largest `fmt ` chunk body read; anything bigger is not a real WAV header. */
const MAX_FMT_BYTES = 4096;

const EMPTY = new Uint8Array(0);

type State =
  | { kind: 'riff' }
  | { kind: 'chunk-header' }
  | { kind: 'fmt'; size: number; pad: number }
  | { kind: 'skip'; remaining: number }
  | { kind: 'data'; remaining: number }
  | { kind: 'done' };

/**
 * Incremental WAV (RIFF/WAVE) reader for a byte stream cut anywhere, e.g. a TTS response body.
 *
 * It walks the RIFF chunks: `fmt ` of any size (16, 18, 40 with WAVE_FORMAT_EXTENSIBLE), any
 * other chunk (LIST, fact, ...) skipped before `data`, odd chunk sizes padded to even (RIFF
 * rule). A `data` size of 0xFFFFFFFF, 0x7FFFF000 and above (espeak-ng `--stdout`) or 0 (what
 * writers that cannot seek back, such as Python's `wave`, leave) is a placeholder: the data runs
 * to the end of the stream. Any other `data` size is taken as exact: reading stops at its end
 * and whatever follows (trailing chunks, pad byte) is ignored.
 *
 * @example
 * const reader = new WavReader();
 * for await (const bytes of body) {
 *   const { format, data } = reader.push(bytes);
 *   if (data.byteLength) play(format!, data);
 * }
 * reader.end();
 */
export class WavReader {
  #state: State = { kind: 'riff' };
  /** Header bytes being gathered (RIFF header, chunk header or fmt body). */
  #header = new Uint8Array(12);
  #headerLength = 0;
  /** Absolute stream offset of the next byte pushed. */
  #offset = 0;
  #format: AudioFormat | undefined;
  #declaredDataBytes: number | undefined;
  #dataBytes = 0;

  /** The stream's format, once known. */
  get format(): AudioFormat | undefined {
    return this.#format;
  }

  /** True once an exact-size `data` chunk has been read to its end (later bytes are ignored). */
  get done(): boolean {
    return this.#state.kind === 'done';
  }

  /**
   * Feeds the next bytes of the stream.
   * @throws ProtocolError with the byte offset for a malformed header: not RIFF/WAVE, `data`
   * before `fmt `, an unsupported format (see parseWavFmt), an oversized `fmt ` chunk.
   */
  push(bytes: Uint8Array): WavReadResult {
    let data: Uint8Array = EMPTY;
    let pos = 0;
    while (pos < bytes.byteLength) {
      const state = this.#state;
      if (state.kind === 'done') {
        pos = bytes.byteLength;
      } else if (state.kind === 'data') {
        const take = Math.min(state.remaining, bytes.byteLength - pos);
        data = bytes.subarray(pos, pos + take);
        pos += take;
        this.#dataBytes += take;
        state.remaining -= take;
        if (state.remaining === 0) this.#state = { kind: 'done' };
      } else if (state.kind === 'skip') {
        const take = Math.min(state.remaining, bytes.byteLength - pos);
        pos += take;
        state.remaining -= take;
        if (state.remaining === 0) this.#state = { kind: 'chunk-header' };
      } else {
        const need = this.#need(state);
        const take = Math.min(need - this.#headerLength, bytes.byteLength - pos);
        this.#header.set(bytes.subarray(pos, pos + take), this.#headerLength);
        this.#headerLength += take;
        pos += take;
        if (this.#headerLength === need) {
          const start = this.#offset + pos - need;
          this.#headerLength = 0;
          this.#parse(state, this.#header.subarray(0, need), start);
        }
      }
    }
    this.#offset += bytes.byteLength;
    return this.#format ? { format: this.#format, data } : { data };
  }

  /**
   * Ends the stream. Returns how many bytes an exact-size `data` chunk declared but never
   * delivered (`truncatedBytes`, 0 when complete or when the size was a placeholder); the
   * caller decides whether a short body is an error.
   * @throws ProtocolError (offset = stream length) when the stream ended before the `data` chunk.
   */
  end(): { truncatedBytes: number } {
    const state = this.#state;
    if (state.kind === 'data' || state.kind === 'done') {
      const declared = this.#declaredDataBytes;
      return { truncatedBytes: declared === undefined ? 0 : declared - this.#dataBytes };
    }
    throw new ProtocolError(`WAV stream ended after ${this.#offset} bytes, before its data chunk`, {
      offset: this.#offset,
    });
  }

  #need(state: State): number {
    if (state.kind === 'riff') return 12;
    if (state.kind === 'fmt') return state.size;
    return 8;
  }

  #parse(state: State, header: Uint8Array, start: number): void {
    const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
    if (state.kind === 'riff') {
      if (ascii(header, 0) !== 'RIFF')
        throw new ProtocolError('Not a WAV stream: no RIFF header', { offset: start });
      if (ascii(header, 8) !== 'WAVE') {
        throw new ProtocolError('Not a WAV stream: RIFF form type is not WAVE', { offset: start + 8 });
      }
      this.#state = { kind: 'chunk-header' };
      return;
    }
    if (state.kind === 'fmt') {
      this.#format = parseWavFmt(header, start);
      this.#state = state.pad ? { kind: 'skip', remaining: state.pad } : { kind: 'chunk-header' };
      this.#header = new Uint8Array(12);
      return;
    }
    const id = ascii(header, 0);
    const size = view.getUint32(4, true);
    if (id === 'fmt ') {
      if (size > MAX_FMT_BYTES) {
        throw new ProtocolError(`WAV fmt chunk of ${size} bytes is too large`, { offset: start + 4 });
      }
      if (size < 16) {
        throw new ProtocolError(`WAV fmt chunk is ${size} bytes; at least 16 expected`, {
          offset: start + 4,
        });
      }
      this.#header = new Uint8Array(size);
      this.#state = { kind: 'fmt', size, pad: size & 1 };
      return;
    }
    if (id === 'data') {
      if (!this.#format)
        throw new ProtocolError('WAV data chunk comes before any fmt chunk', { offset: start });
      const open = size === 0 || size === UNKNOWN_SIZE || size >= HUGE_PLACEHOLDER;
      this.#declaredDataBytes = open ? undefined : size;
      this.#state = { kind: 'data', remaining: open ? Number.POSITIVE_INFINITY : size };
      return;
    }
    const skip = size + (size & 1);
    this.#state = skip === 0 ? { kind: 'chunk-header' } : { kind: 'skip', remaining: skip };
  }
}

function ascii(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
}
