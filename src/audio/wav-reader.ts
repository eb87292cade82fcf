import { ProtocolError } from '../errors/protocol-error.js';
import type { AudioFormat } from '../types/audio.js';
import { formatLabel, sameFormat } from './format.js';
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

/** `RIFF????WAVE`: the start of a WAV file (`?`: the 4 size bytes, any value). */
const WAV_START = [0x52, 0x49, 0x46, 0x46, -1, -1, -1, -1, 0x57, 0x41, 0x56, 0x45];

type State =
  | { kind: 'riff' }
  | { kind: 'chunk-header' }
  | { kind: 'fmt'; size: number; pad: number }
  | { kind: 'skip'; remaining: number; next: 'chunk-header' | 'trailing' }
  | { kind: 'data'; remaining: number; open: boolean; pad: number }
  | { kind: 'trailing' }
  | { kind: 'pad' }
  | { kind: 'wave-tag' }
  | { kind: 'done' };

/**
 * Incremental WAV (RIFF/WAVE) reader for a byte stream cut anywhere, e.g. a TTS response body.
 *
 * It walks the RIFF chunks: `fmt ` of any size (16, 18, 40 with WAVE_FORMAT_EXTENSIBLE), any
 * other chunk (LIST, fact, ...) skipped before `data`, odd chunk sizes padded to even (RIFF
 * rule). A `data` size of 0xFFFFFFFF, 0x7FFFF000 and above (espeak-ng `--stdout`) or 0 (what
 * writers that cannot seek back, such as Python's `wave`, leave) is a placeholder: the data runs
 * to the end of the stream. Any other `data` size is taken as exact: reading stops at its end,
 * and the chunks that follow (LIST, id3, pad byte) are skipped.
 *
 * A stream of WAV files back to back (servers that encode each sentence separately) is read as
 * one: a new `RIFF....WAVE` header after an exact-size `data` chunk (also right after an odd-size
one whose writer left out the pad byte), or found among the bytes
 * of a placeholder-size one (the 12 bytes `RIFF`, 4 any, `WAVE`, at any offset), starts the
 * next file, whose header is read and never yielded as samples. Its format must be the first
 * file's; another format is a ProtocolError. While a placeholder-size chunk's last pushed bytes
 * could be the start of such a header (at most 11 bytes), they are held back until the next
 * push, or returned by `end()` as `rest`.
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
  /** True once a second WAV header has started: its format must match the first. */
  #restarted = false;
  /** Bytes of a placeholder-size `data` chunk held back: they may start a WAV header. */
  #held: Uint8Array = EMPTY;

  /** The stream's format, once known. */
  get format(): AudioFormat | undefined {
    return this.#format;
  }

  /** True once an exact-size `data` chunk has been read to its end (later bytes are ignored). */
  get done(): boolean {
    const kind = this.#state.kind;
    return (
      kind === 'done' ||
      kind === 'trailing' ||
      kind === 'pad' ||
      (kind === 'skip' && this.#state.next === 'trailing')
    );
  }

  /**
   * Feeds the next bytes of the stream.
   * @throws ProtocolError with the byte offset for a malformed header: not RIFF/WAVE, `data`
   * before `fmt `, an unsupported format (see parseWavFmt), an oversized `fmt ` chunk, a next
   * WAV file whose format differs from the first's.
   */
  push(pushed: Uint8Array): WavReadResult {
    let bytes = pushed;
    if (this.#held.byteLength > 0) {
      bytes = new Uint8Array(this.#held.byteLength + pushed.byteLength);
      bytes.set(this.#held, 0);
      bytes.set(pushed, this.#held.byteLength);
      this.#offset -= this.#held.byteLength;
      this.#held = EMPTY;
    }
    let data: Uint8Array = EMPTY;
    let more: Uint8Array[] | undefined;
    let pos = 0;
    while (pos < bytes.byteLength) {
      const state = this.#state;
      if (state.kind === 'done') {
        pos = bytes.byteLength;
      } else if (state.kind === 'data') {
        let take = Math.min(state.remaining, bytes.byteLength - pos);
        let next: 'riff' | 'hold' | undefined;
        if (state.open) {
          const at = wavStart(bytes, pos);
          if (at !== -1) {
            take = at - pos;
            next = at + WAV_START.length <= bytes.byteLength ? 'riff' : 'hold';
          }
        }
        if (take > 0) {
          const piece = bytes.subarray(pos, pos + take);
          if (data.byteLength === 0) data = piece;
          else {
            more ??= [data];
            more.push(piece);
          }
        }
        pos += take;
        this.#dataBytes += take;
        state.remaining -= take;
        if (next === 'riff') {
          this.#restarted = true;
          this.#state = { kind: 'riff' };
        } else if (next === 'hold') {
          this.#held = bytes.slice(pos);
          pos = bytes.byteLength;
        } else if (state.remaining === 0) {
          this.#state = state.pad ? { kind: 'pad' } : { kind: 'trailing' };
        }
      } else if (state.kind === 'pad') {
        // The pad byte of an odd-size data chunk, unless the writer left it out and the next
        // WAV file starts here: peek for `RIFF` (held back while the bytes could still be it).
        const riff = riffPrefix(bytes, pos);
        if (riff === 4) {
          this.#restarted = true;
          this.#state = { kind: 'riff' };
        } else if (riff > 0 && pos + riff === bytes.byteLength) {
          this.#held = bytes.slice(pos);
          pos = bytes.byteLength;
        } else {
          pos += 1;
          this.#state = { kind: 'trailing' };
        }
      } else if (state.kind === 'skip') {
        const take = Math.min(state.remaining, bytes.byteLength - pos);
        pos += take;
        state.remaining -= take;
        if (state.remaining === 0) this.#state = { kind: state.next };
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
    this.#offset += bytes.byteLength - this.#held.byteLength;
    if (more) data = joinAll(more);
    return this.#format ? { format: this.#format, data } : { data };
  }

  /**
   * Ends the stream. Returns how many bytes the last exact-size `data` chunk declared but never
   * delivered (`truncatedBytes`, 0 when complete or when the size was a placeholder; the caller
   * decides whether a short body is an error), and `rest`: the held-back last bytes of a
   * placeholder-size chunk (audio: they did not turn into a WAV header), when there are any.
   * @throws ProtocolError (offset = stream length) when the stream ended before the `data`
   * chunk, also that of a next WAV file whose header had begun.
   */
  end(): { truncatedBytes: number; rest?: Uint8Array } {
    const state = this.#state;
    if (state.kind === 'data') {
      const declared = this.#declaredDataBytes;
      const truncatedBytes = declared === undefined ? 0 : declared - this.#dataBytes;
      return this.#held.byteLength > 0 ? { truncatedBytes, rest: this.#held } : { truncatedBytes };
    }
    const trailing =
      state.kind === 'trailing' ||
      state.kind === 'pad' ||
      (state.kind === 'skip' && state.next === 'trailing');
    if (
      state.kind === 'done' ||
      (trailing && !(this.#headerLength >= 4 && ascii(this.#header, 0) === 'RIFF'))
    ) {
      return { truncatedBytes: 0 };
    }
    throw new ProtocolError(`WAV stream ended after ${this.#offset} bytes, before its data chunk`, {
      offset: this.#offset,
    });
  }

  #need(state: State): number {
    if (state.kind === 'riff') return 12;
    if (state.kind === 'fmt') return state.size;
    if (state.kind === 'wave-tag') return 4;
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
    if (state.kind === 'wave-tag') {
      if (ascii(header, 0) !== 'WAVE') {
        throw new ProtocolError('Not a WAV stream: RIFF form type is not WAVE', { offset: start });
      }
      this.#restarted = true;
      this.#state = { kind: 'chunk-header' };
      return;
    }
    if (state.kind === 'trailing') {
      const id = ascii(header, 0);
      const size = view.getUint32(4, true);
      if (id === 'RIFF') this.#state = { kind: 'wave-tag' };
      else if (!/^[\x20-\x7e]{4}$/.test(id)) this.#state = { kind: 'done' };
      else {
        const skip = size + (size & 1);
        this.#state = skip === 0 ? { kind: 'trailing' } : { kind: 'skip', remaining: skip, next: 'trailing' };
      }
      return;
    }
    if (state.kind === 'fmt') {
      const format = parseWavFmt(header, start);
      const first = this.#format;
      if (this.#restarted && first && !sameFormat(first, format)) {
        throw new ProtocolError(
          `WAV stream restarts with another format (${formatLabel(format)} after ${formatLabel(first)})`,
          { offset: start },
        );
      }
      this.#format = first ?? format;
      this.#state = state.pad
        ? { kind: 'skip', remaining: state.pad, next: 'chunk-header' }
        : { kind: 'chunk-header' };
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
      this.#dataBytes = 0;
      this.#state = { kind: 'data', remaining: open ? Number.POSITIVE_INFINITY : size, open, pad: size & 1 };
      return;
    }
    const skip = size + (size & 1);
    this.#state =
      skip === 0 ? { kind: 'chunk-header' } : { kind: 'skip', remaining: skip, next: 'chunk-header' };
  }
}

/**
 * The offset from `from` on where `bytes` hold `RIFF????WAVE`, or where their end could be the
 * start of it (held back until more bytes come); -1 when neither.
 */
function wavStart(bytes: Uint8Array, from: number): number {
  const end = bytes.byteLength;
  for (let at = bytes.indexOf(0x52, from); at !== -1; at = bytes.indexOf(0x52, at + 1)) {
    let i = 1;
    while (i < WAV_START.length && at + i < end && (WAV_START[i] === -1 || bytes[at + i] === WAV_START[i]))
      i++;
    if (i === WAV_START.length || at + i === end) return at;
  }
  return -1;
}

/** How many bytes from `at` on match the start of `RIFF` (4: all of it; stops at the end of `bytes`). */
function riffPrefix(bytes: Uint8Array, at: number): number {
  let i = 0;
  while (i < 4 && at + i < bytes.byteLength && bytes[at + i] === WAV_START[i]) i++;
  return i;
}

function joinAll(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.byteLength;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

function ascii(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
}
