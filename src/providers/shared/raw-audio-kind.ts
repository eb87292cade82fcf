/**
 * What a raw speech answer holds, from its `Content-Type`: `'wav'` for the WAV types,
 * `'pcm'` for raw-sample types, none or a generic binary type, `'other'` for compressed audio,
 * JSON or text (the server did not honour `response_format`).
 */
export function rawAudioKind(contentType: string): 'pcm' | 'wav' | 'other' {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === '' || type === 'application/octet-stream' || type === 'binary/octet-stream') return 'pcm';
  if (['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave'].includes(type)) return 'wav';
  if (['audio/pcm', 'audio/raw', 'audio/x-raw'].includes(type)) return 'pcm';
  return 'other';
}
