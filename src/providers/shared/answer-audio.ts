import { formatLabel } from '../../audio/format.js';
import { ProtocolError } from '../../errors/index.js';
import type { AudioEncoding, AudioFormat } from '../../types/audio.js';

/**
 * What the `Content-Type` of an audio answer says about its bytes (see {@link declaredAudio}):
 * - `unlabelled`: no type, or a generic binary type: nothing is said;
 * - `wav`: a WAV file, whose header tells the format;
 * - `raw`: raw samples, with the encoding, sample rate (Hz) and channels the type names
 *   (each absent when it does not name it);
 * - `mpeg`: MP3 (`audio/mpeg`, `audio/mp3`);
 * - `not-audio`: JSON or text (an error page served with 200);
 * - `other`: any other type (Ogg, Opus, FLAC, AAC, ...): not raw samples.
 */
export type DeclaredAudio =
  | { kind: 'unlabelled' | 'wav' | 'mpeg' | 'not-audio' | 'other' }
  | { kind: 'raw'; encoding?: AudioEncoding; sampleRate?: number; channels?: number };

const WAV_TYPES = new Set(['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave']);
const UNLABELLED_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream']);
/** Raw-sample types and the encoding each names (undefined: samples of an unnamed encoding). */
const RAW_TYPES = new Map<string, AudioEncoding | undefined>([
  ['audio/pcm', undefined],
  ['audio/raw', undefined],
  ['audio/x-raw', undefined],
  // 16-bit linear PCM. RFC 2586 makes audio/L16 big-endian, but the TTS APIs that use the name
  // for their output (Deepgram's linear16) document it as little-endian: read as pcm_s16le.
  ['audio/l16', 'pcm_s16le'],
  ['audio/basic', 'mulaw'],
  ['audio/pcmu', 'mulaw'],
  ['audio/mulaw', 'mulaw'],
  ['audio/x-mulaw', 'mulaw'],
  ['audio/ulaw', 'mulaw'],
  ['audio/x-ulaw', 'mulaw'],
  ['audio/pcma', 'alaw'],
  ['audio/alaw', 'alaw'],
  ['audio/x-alaw', 'alaw'],
  ['audio/x-alaw-basic', 'alaw'],
]);

/** A positive integer parameter of a media type (`rate=24000`), else undefined. */
function intParam(params: Map<string, string>, ...names: string[]): number | undefined {
  for (const name of names) {
    const value = params.get(name);
    if (value !== undefined && /^\d+$/.test(value) && Number(value) > 0) return Number(value);
  }
  return undefined;
}

const UNLABELLED: DeclaredAudio = Object.freeze({ kind: 'unlabelled' });
const WAV: DeclaredAudio = Object.freeze({ kind: 'wav' });
const MPEG: DeclaredAudio = Object.freeze({ kind: 'mpeg' });
const NOT_AUDIO: DeclaredAudio = Object.freeze({ kind: 'not-audio' });
const OTHER: DeclaredAudio = Object.freeze({ kind: 'other' });

/**
 * What `contentType` (a response header, any case, with parameters) says about an audio
 * answer's bytes; see {@link DeclaredAudio}. Parameters read for raw types: `rate` (also
 * `sample_rate`, `samplerate`) and `channels`. `audio/basic` is mu-law at 8000 Hz mono by
 * definition (RFC 2046 4.3); `audio/L16` is read as 16-bit little-endian PCM (see the table).
 */
export function declaredAudio(contentType: string): DeclaredAudio {
  // Called on every speech answer: no split or allocation unless the type is a raw one.
  const end = contentType.indexOf(';');
  const type = (end === -1 ? contentType : contentType.slice(0, end)).trim().toLowerCase();
  if (UNLABELLED_TYPES.has(type)) return UNLABELLED;
  if (WAV_TYPES.has(type)) return WAV;
  if (type === 'audio/mpeg' || type === 'audio/mp3') return MPEG;
  if (type === 'application/json' || type.endsWith('+json') || type.startsWith('text/')) return NOT_AUDIO;
  if (!RAW_TYPES.has(type)) return OTHER;
  const rawParams = end === -1 ? [] : contentType.slice(end + 1).split(';');
  const params = new Map<string, string>();
  for (const param of rawParams) {
    const at = param.indexOf('=');
    if (at > 0)
      params.set(
        param.slice(0, at).trim().toLowerCase(),
        param
          .slice(at + 1)
          .trim()
          .replace(/^"|"$/g, ''),
      );
  }
  const encoding = RAW_TYPES.get(type);
  const sampleRate =
    intParam(params, 'rate', 'sample_rate', 'samplerate') ?? (type === 'audio/basic' ? 8000 : undefined);
  const channels = intParam(params, 'channels') ?? (type === 'audio/basic' ? 1 : undefined);
  return {
    kind: 'raw',
    ...(encoding ? { encoding } : {}),
    ...(sampleRate ? { sampleRate } : {}),
    ...(channels ? { channels } : {}),
  };
}

/** The ProtocolError of an answer whose Content-Type contradicts the `requested` raw format. */
export function contentTypeMismatch(
  provider: string,
  what: string,
  contentType: string,
  requested: AudioFormat,
): ProtocolError {
  return new ProtocolError(`${what} has Content-Type '${contentType}', not ${formatLabel(requested)}`, {
    provider,
  });
}

/**
 * The format of the bytes of a raw answer (asked for as `requested`) whose Content-Type
 * declared `declared` (`raw` or `unlabelled`): what the type names, the request for what it does
 * not name. A type that names another encoding without a sample rate (so that the bytes could
 * not be converted), a type that names no encoding but another sample rate while the request is
 * not 16-bit PCM (`audio/pcm; rate=16000` for mu-law at 8 kHz: which encoding is unknown), or
 * more than one channel, is a ProtocolError ({@link contentTypeMismatch}); a type that names the
 * whole format (e.g. `audio/L16; rate=24000`) labels the bytes with it, and the router converts.
 * An unlabelled answer is trusted to be `requested`.
 */
export function rawAnswerFormat(
  provider: string,
  what: string,
  contentType: string,
  declared: DeclaredAudio,
  requested: AudioFormat,
): AudioFormat {
  if (declared.kind === 'unlabelled') return { ...requested };
  if (declared.kind !== 'raw') throw contentTypeMismatch(provider, what, contentType, requested);
  const encoding = declared.encoding ?? requested.encoding;
  // A type that names no encoding (`audio/pcm`) is read in the requested one only where it
  // agrees with the request: with another sample rate it is an answer made in some other format,
  // and, unless 16-bit PCM was asked for (what `audio/pcm` means by itself), not one whose
  // encoding can be told.
  const otherRate = declared.sampleRate !== undefined && declared.sampleRate !== requested.sampleRate;
  const unknownEncoding = declared.encoding === undefined && otherRate && requested.encoding !== 'pcm_s16le';
  const unconvertible =
    unknownEncoding || (encoding !== requested.encoding && declared.sampleRate === undefined);
  // voxroute's audio is mono: more channels cannot be labelled.
  if (unconvertible || (declared.channels ?? 1) !== 1)
    throw contentTypeMismatch(provider, what, contentType, requested);
  return {
    ...requested,
    encoding,
    sampleRate: declared.sampleRate ?? requested.sampleRate,
  };
}

/** Layer III bitrates in kbps by bitrate index: MPEG-1, then MPEG-2 and 2.5 (ISO/IEC 11172-3, 13818-3). */
const L3_KBPS_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const L3_KBPS_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
/** Sample rates in Hz by sample rate index: MPEG-1, MPEG-2, MPEG-2.5. */
const MPEG_RATES = {
  3: [44_100, 48_000, 32_000],
  2: [22_050, 24_000, 16_000],
  0: [11_025, 12_000, 8000],
} as const;

/**
 * The length in bytes of the MPEG Layer III frame whose header starts at `at` (11 sync bits, a
 * version that is not reserved, layer III, a bitrate that is neither free nor reserved, a
 * sample rate that is not reserved), or 0 when the 4 bytes there are no such header.
 */
function layer3FrameBytes(b: Uint8Array, at: number): number {
  const b1 = b[at + 1] ?? 0;
  const b2 = b[at + 2] ?? 0;
  if (b[at] !== 0xff || (b1 & 0xe0) !== 0xe0) return 0;
  const version = (b1 >> 3) & 0x03;
  if (version === 1 || ((b1 >> 1) & 0x03) !== 1) return 0;
  const bitrateIndex = (b2 >> 4) & 0x0f;
  const rateIndex = (b2 >> 2) & 0x03;
  if (bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return 0;
  const v1 = version === 3;
  const kbps = (v1 ? L3_KBPS_V1 : L3_KBPS_V2)[bitrateIndex]!;
  const rate = MPEG_RATES[version as 0 | 2 | 3][rateIndex]!;
  const padding = (b2 >> 1) & 0x01;
  return Math.floor(((v1 ? 144_000 : 72_000) * kbps) / rate) + padding;
}

/**
 * Whether `head` (the first bytes of a body) is MP3: `'mp3'` for an ID3v2 tag, or a Layer III
 * frame header followed, one frame later, by another header of the same version and sample
 * rate; `'not'` when it is neither; `'more'` when the answer needs more bytes (fewer than 4, or
 * a first header whose frame has not all arrived: at most about 1.5 KB). Two headers in a row
 * are asked for because raw audio often starts like one: PCM s16le samples -1 then 20 are the
 * bytes `FF FF 14 00`, a valid header on its own.
 */
export function mp3Verdict(head: Uint8Array): 'mp3' | 'not' | 'more' {
  if (head.byteLength < 4) return 'more';
  if (head[0] === 0x49 && head[1] === 0x44 && head[2] === 0x33) return 'mp3'; // "ID3"
  const frame = layer3FrameBytes(head, 0);
  if (frame === 0) return 'not';
  if (head.byteLength < frame + 4) return 'more';
  const same = ((head[1]! ^ head[frame + 1]!) & 0x18) === 0 && ((head[2]! ^ head[frame + 2]!) & 0x0c) === 0;
  return same && layer3FrameBytes(head, frame) > 0 ? 'mp3' : 'not';
}
