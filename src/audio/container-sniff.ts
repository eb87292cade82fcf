/**
 * Audio file containers told apart from raw samples by their first bytes: signatures that raw
 * samples are very unlikely to start with (a 4-byte magic plus a checked field), so that any
 * stream of raw audio passes. Used on provider answers asked for as raw samples and on the
 * caller's STT audio.
 */

/** Bytes {@link containerOf} needs to decide (a RIFF header's form type ends at byte 12). */
export const CONTAINER_SNIFF_BYTES = 12;

function startsWith(b: Uint8Array, text: string): boolean {
  if (b.byteLength < text.length) return false;
  for (let i = 0; i < text.length; i++) if (b[i] !== text.charCodeAt(i)) return false;
  return true;
}

/** An ID3v2 tag header: `ID3`, major version 2..4, revision not 0xFF, four syncsafe size bytes. */
function isId3(b: Uint8Array): boolean {
  if (b.byteLength < 10 || !startsWith(b, 'ID3')) return false;
  const major = b[3]!;
  if (major < 2 || major > 4 || b[4] === 0xff) return false;
  for (let i = 6; i < 10; i++) if (b[i]! >= 0x80) return false;
  return true;
}

/**
 * The container a file starts with, named for a message, or undefined for anything else (raw
 * samples, a WAV file: see wav-sniff.ts, or too few bytes):
 * - `RIFF` with a form type other than `WAVE` (AVI, WEBP...);
 * - `ID3` with a valid ID3v2 version and syncsafe size: MP3 (ID3 tag);
 * - `OggS` with stream structure version 0: Ogg (Opus, Vorbis);
 * - `fLaC` then a STREAMINFO block header: FLAC;
 * - `1A 45 DF A3`: WebM/Matroska.
 * `otherRiff` false (default true) leaves out the first rule: a RIFF header that is no WAV's is
 * then taken for raw samples. MP3 without an ID3 tag (bare MPEG frames) is not told here: its frame header is two bytes that
 * raw samples may start with.
 */
export function containerOf(head: Uint8Array, otherRiff = true): string | undefined {
  if (startsWith(head, 'RIFF') && head.byteLength >= CONTAINER_SNIFF_BYTES) {
    if (!otherRiff) return undefined;
    const form = String.fromCharCode(...head.subarray(8, 12));
    return form === 'WAVE' ? undefined : `a RIFF '${form.replace(/[^\x20-\x7e]/g, '?')}' file`;
  }
  if (isId3(head)) return 'MP3 (ID3 tag)';
  if (startsWith(head, 'OggS') && head[4] === 0) return 'Ogg';
  if (startsWith(head, 'fLaC') && head.byteLength >= 5 && (head[4]! & 0x7f) === 0) return 'FLAC';
  if (startsWith(head, '\x1a\x45\xdf\xa3')) return 'WebM/Matroska';
  return undefined;
}
