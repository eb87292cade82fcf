import type { AudioFormat } from '../../types/audio.js';
import type { SttCapabilities } from '../types.js';

/**
 * Input formats of the transcription adapter, best first: PCM s16le at 16 kHz (what Whisper
 * models run at), 24 kHz and 8 kHz. The audio is sent as a WAV file, which every
 * OpenAI-compatible server reads.
 */
export const TRANSCRIPTION_INPUT_FORMATS: AudioFormat[] = [
  { encoding: 'pcm_s16le', sampleRate: 16_000 },
  { encoding: 'pcm_s16le', sampleRate: 24_000 },
  { encoding: 'pcm_s16le', sampleRate: 8_000 },
];

/**
 * The STT capabilities of an OpenAI(-compatible) provider: {@link TRANSCRIPTION_INPUT_FORMATS}
 * (copies), no streaming input (the server reads a whole file). Known without loading the
 * adapter's code: the router reads them when it plans a call.
 */
export function openAiSttCapabilities(): SttCapabilities {
  return { inputFormats: TRANSCRIPTION_INPUT_FORMATS.map((f) => ({ ...f })), streamingInput: false };
}
