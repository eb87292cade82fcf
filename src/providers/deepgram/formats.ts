import type { AudioEncoding, AudioFormat } from '../../types/audio.js';
import type { SttCapabilities } from '../types.js';

/** Deepgram's names of the raw encodings voxroute exchanges with it (PROTOCOLS.md 3.2, 3.3). */
export type DeepgramRawEncoding = 'linear16' | 'mulaw' | 'alaw';

/**
 * Deepgram's `encoding` value of an AudioFormat's encoding: PCM s16le is `linear16`
 * ("16-bit, little-endian, signed PCM", DGDOC-tts-encoding), G.711 `mulaw` and `alaw`.
 * Undefined for `pcm_f32le` (Deepgram's `linear32` is 32-bit integer PCM, not float).
 */
export function deepgramEncoding(encoding: AudioEncoding): DeepgramRawEncoding | undefined {
  switch (encoding) {
    case 'pcm_s16le':
      return 'linear16';
    case 'mulaw':
      return 'mulaw';
    case 'alaw':
      return 'alaw';
    case 'pcm_f32le':
      return undefined;
  }
}

const pcm = (sampleRate: number): AudioFormat => ({ encoding: 'pcm_s16le', sampleRate, channels: 1 });

/**
 * Formats the live STT adapter sends as they are, best first: PCM s16le at 16 kHz (the rate
 * speech models run at), then 8, 24, 32, 44.1 and 48 kHz, and G.711 mu-law and A-law at 8 kHz
 * (telephony). `/v1/listen` takes `encoding` and any integer `sample_rate` in its query
 * (PROTOCOLS.md 3.2, DGJS `ListenV1Encoding`), so the router sends the caller's own format
 * whenever it is one of these, without conversion.
 */
export const DEEPGRAM_LISTEN_INPUT_FORMATS: readonly AudioFormat[] = [
  pcm(16_000),
  pcm(8_000),
  pcm(24_000),
  pcm(32_000),
  pcm(44_100),
  pcm(48_000),
  { encoding: 'mulaw', sampleRate: 8_000, channels: 1 },
  { encoding: 'alaw', sampleRate: 8_000, channels: 1 },
];

/**
 * The STT capabilities of a Deepgram provider: {@link DEEPGRAM_LISTEN_INPUT_FORMATS} (copies),
 * streaming input (transcripts arrive while audio flows). Known without loading the adapter's
 * code: the router reads them when it plans a call.
 */
export function deepgramSttCapabilities(): SttCapabilities {
  return {
    inputFormats: DEEPGRAM_LISTEN_INPUT_FORMATS.map((format) => ({ ...format })),
    streamingInput: true,
  };
}

/**
 * Formats `/v1/speak` produces as raw audio (`container=none`), best first: PCM s16le at
 * 24 kHz (Deepgram's REST default rate, DGDOC-tts-media-output-settings), 16, 8, 32 and 48 kHz
 * (the rates of DGJS `SpeakV1SampleRate`), and mu-law and A-law at 8 kHz. Per-encoding rate
 * limits of the REST endpoint are UNCONFIRMED (PROTOCOLS.md 3.3), so G.711 is offered at
 * 8 kHz only, the rate telephony uses.
 */
export const DEEPGRAM_SPEAK_OUTPUT_FORMATS: readonly AudioFormat[] = [
  pcm(24_000),
  pcm(16_000),
  pcm(8_000),
  pcm(32_000),
  pcm(48_000),
  { encoding: 'mulaw', sampleRate: 8_000, channels: 1 },
  { encoding: 'alaw', sampleRate: 8_000, channels: 1 },
];
