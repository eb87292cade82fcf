/** WAV media types (lower case). */
const WAV_TYPES = new Set(['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave']);
/** Media types of raw samples, none, or generic binary (lower case). */
const PCM_TYPES = new Set([
  '',
  'application/octet-stream',
  'binary/octet-stream',
  'audio/pcm',
  'audio/raw',
  'audio/x-raw',
]);

/**
 * What a raw speech answer holds, from its `Content-Type`: `'wav'` for the WAV types,
 * `'pcm'` for raw-sample types, none or a generic binary type, `'other'` for compressed audio,
 * JSON or text (the server did not honour `response_format`).
 */
export function rawAudioKind(contentType: string): 'pcm' | 'wav' | 'other' {
  const end = contentType.indexOf(';');
  const type = (end === -1 ? contentType : contentType.slice(0, end)).trim().toLowerCase();
  if (PCM_TYPES.has(type)) return 'pcm';
  if (WAV_TYPES.has(type)) return 'wav';
  return 'other';
}
