import { containerOf } from '../../audio/container-sniff.js';
import { isWavHeader, WAV_SNIFF_BYTES } from '../../audio/wav-sniff.js';
import { mp3Verdict } from './answer-audio.js';

/** Bytes read from the start of a body before it is classified (a WAV header's `RIFF....WAVE`). */
export const SNIFF_BYTES = WAV_SNIFF_BYTES;

/** Bytes of a text-looking start checked for valid UTF-8 text (the rest of the body is not read). */
const TEXT_CHECK_BYTES = 512;

/**
 * What the first bytes of an audio body asked for as raw samples are (see {@link sniffBodyHead}):
 * - `wav`: a WAV file header (`RIFF....WAVE`);
 * - `foreign`: a file that is not raw samples, named in `what` (MP3, Ogg, FLAC, ...), or text;
 * - `raw`: anything else, taken as raw samples;
 * - `more`: more bytes are needed to tell.
 */
export type BodySignature = { kind: 'wav' | 'raw' | 'more' } | { kind: 'foreign'; what: string };

const WAV: BodySignature = Object.freeze({ kind: 'wav' });
const RAW: BodySignature = Object.freeze({ kind: 'raw' });
const MORE: BodySignature = Object.freeze({ kind: 'more' });
const foreign = (what: string): BodySignature => ({ kind: 'foreign', what });

/**
 * True when the start of `b` is valid UTF-8 text (a sequence cut at the end is allowed) with
 * no control byte but tab, line feed and carriage return.
 */
function isText(b: Uint8Array): boolean {
  const head = b.subarray(0, TEXT_CHECK_BYTES);
  for (const byte of head) {
    if ((byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) || byte === 0x7f) return false;
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** JSON (`{"`, `[{`, `["`) or markup (`<!`, `<?xml`, `<html` in any case) at the start, when it is text. */
function textKind(b: Uint8Array): string | undefined {
  const c0 = b[0];
  const c1 = b[1];
  let what: string | undefined;
  if ((c0 === 0x7b && c1 === 0x22) || (c0 === 0x5b && (c1 === 0x7b || c1 === 0x22))) what = 'JSON text';
  else if (c0 === 0x3c) {
    const tag = String.fromCharCode(...b.subarray(0, 5)).toLowerCase();
    if (c1 === 0x21 || tag === '<?xml' || tag === '<html') what = 'HTML or XML text';
  }
  return what !== undefined && isText(b) ? what : undefined;
}

/**
 * Classifies `head`, the first bytes of an audio body asked for as raw samples (`ended`: the
 * body has no more). Only signatures that raw samples are very unlikely to start with are
 * matched, since raw audio may start with any bytes:
 * - `RIFF....WAVE`: a WAV file (`wav`); `RIFF` with another form type (AVI, WEBP...): foreign;
 * - `ID3` with a valid ID3v2 version and syncsafe size: MP3; an MPEG Layer III frame header
 *   followed, one frame later, by another (see `mp3Verdict`): MP3;
 * - `OggS` with stream structure version 0: Ogg (Opus, Vorbis); `fLaC` then a STREAMINFO block
 *   header: FLAC; `1A 45 DF A3`: WebM/Matroska;
 * - `{"`, `[{`, `["`, `<!`, `<?xml`, `<html` when the first 512 bytes are valid UTF-8 with no
 *   control byte but tab, CR, LF: text (a JSON or HTML error served with 200).
 * `more` until {@link SNIFF_BYTES} bytes are there, and, only when the body starts with an MPEG
 * frame header, until the second header is there (at most about 1.5 KB). `mpegFrames` false
 * (default true) leaves out the MPEG frame check, so that a body whose Content-Type declares raw
 * samples is decided within {@link SNIFF_BYTES} bytes (mu-law near-silence starts like an MPEG
 * frame header).
 */
export function sniffBodyHead(head: Uint8Array, ended: boolean, mpegFrames = true): BodySignature {
  if (head.byteLength < SNIFF_BYTES && !ended) return MORE;
  if (isWavHeader(head)) return WAV;
  const container = containerOf(head);
  if (container !== undefined) return foreign(container);
  const text = textKind(head);
  if (text !== undefined) return foreign(text);
  if (mpegFrames && head[0] === 0xff && head[1] !== undefined && head[1] >= 0xe0) {
    const verdict = mp3Verdict(head);
    if (verdict === 'mp3') return foreign('MP3 (MPEG frames)');
    if (verdict === 'more' && !ended) return MORE;
  }
  return RAW;
}
