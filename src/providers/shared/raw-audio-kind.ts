import { declaredAudio } from './answer-audio.js';

/**
 * What a raw speech answer holds, from its `Content-Type` (read by {@link declaredAudio}):
 * `'wav'` for the WAV types, `'pcm'` for raw-sample types that name no other encoding
 * (`audio/pcm`, `audio/raw`, `audio/x-raw`), none or a generic binary type, `'other'` for
 * compressed audio, JSON or text (the server did not honour `response_format`), and for the
 * types of one encoding (`audio/L16`, `audio/basic`, ...).
 */
export function rawAudioKind(contentType: string): 'pcm' | 'wav' | 'other' {
  const declared = declaredAudio(contentType);
  if (declared.kind === 'wav') return 'wav';
  if (declared.kind === 'unlabelled') return 'pcm';
  if (declared.kind === 'raw' && declared.encoding === undefined) return 'pcm';
  return 'other';
}
