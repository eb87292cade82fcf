import { formatLabel } from '../../audio/format.js';
import { ProviderError } from '../../errors/index.js';
import type { AudioEncoding, AudioFormat } from '../../types/audio.js';
import type { SttCapabilities } from '../types.js';
import type { WireRawOutputFormat } from './api-types.js';

/** Sample rates of Cartesia's `output_format`, in Hz (PROTOCOLS.md 1.2, CJS `src/resources/tts.ts`). */
export const CARTESIA_SAMPLE_RATES: readonly number[] = [8_000, 16_000, 22_050, 24_000, 44_100, 48_000];

/** voxroute encoding -> Cartesia's name for it (PROTOCOLS.md 1.2, 1.6). */
const WIRE_ENCODING: Record<AudioEncoding, WireRawOutputFormat['encoding']> = {
  pcm_s16le: 'pcm_s16le',
  pcm_f32le: 'pcm_f32le',
  mulaw: 'pcm_mulaw',
  alaw: 'pcm_alaw',
};

/** Rates in order of preference: 24 kHz (Sonic's native rate), wideband, then the rest. */
const TTS_RATE_ORDER = [24_000, 16_000, 22_050, 44_100, 48_000, 8_000];
/** G.711 is telephony audio: 8 kHz first. */
const G711_RATE_ORDER = [8_000, 16_000, 22_050, 24_000, 44_100, 48_000];

/**
 * Every raw output format Cartesia TTS produces, best first: PCM s16le, PCM f32le, mu-law and
 * A-law, each at 8000, 16000, 22050, 24000, 44100 and 48000 Hz, mono (24 formats). The router
 * asks for the caller's own format when it is one of them, so no conversion happens.
 */
export const CARTESIA_TTS_FORMATS: readonly AudioFormat[] = [
  ...TTS_RATE_ORDER.map((sampleRate): AudioFormat => ({ encoding: 'pcm_s16le', sampleRate })),
  ...TTS_RATE_ORDER.map((sampleRate): AudioFormat => ({ encoding: 'pcm_f32le', sampleRate })),
  ...G711_RATE_ORDER.map((sampleRate): AudioFormat => ({ encoding: 'mulaw', sampleRate })),
  ...G711_RATE_ORDER.map((sampleRate): AudioFormat => ({ encoding: 'alaw', sampleRate })),
];

/**
 * Input formats of Cartesia STT, best first: PCM s16le at 16000 Hz (what Ink runs at), then
 * PCM s16le and f32le at the other common rates, and mu-law / A-law at 8000 and 16000 Hz.
 * (`/stt/websocket` takes any integer `sample_rate` and also `pcm_s32le`, `pcm_f16le`, which
 * voxroute does not produce; PROTOCOLS.md 1.6.)
 */
export const CARTESIA_STT_FORMATS: readonly AudioFormat[] = [
  ...[16_000, 8_000, 24_000, 22_050, 44_100, 48_000].map(
    (sampleRate): AudioFormat => ({ encoding: 'pcm_s16le', sampleRate }),
  ),
  ...[16_000, 8_000, 24_000, 22_050, 44_100, 48_000].map(
    (sampleRate): AudioFormat => ({ encoding: 'pcm_f32le', sampleRate }),
  ),
  { encoding: 'mulaw', sampleRate: 8_000 },
  { encoding: 'mulaw', sampleRate: 16_000 },
  { encoding: 'alaw', sampleRate: 8_000 },
  { encoding: 'alaw', sampleRate: 16_000 },
];

/**
 * The STT capabilities of a Cartesia provider: {@link CARTESIA_STT_FORMATS} (copies), no
 * streaming input (transcripts come once the audio is finalized). Known without loading the
 * adapter's code: the router reads them when it plans a call.
 */
export function cartesiaSttCapabilities(): SttCapabilities {
  return { inputFormats: CARTESIA_STT_FORMATS.map((f) => ({ ...f })), streamingInput: false };
}

/** Cartesia's name of an encoding: `pcm_s16le`, `pcm_f32le`, `pcm_mulaw`, `pcm_alaw`. */
export function wireEncoding(encoding: AudioEncoding): WireRawOutputFormat['encoding'] {
  return WIRE_ENCODING[encoding];
}

/**
 * The raw `output_format` of `format` (PROTOCOLS.md 1.2):
 * `{container:'raw', encoding:'pcm_mulaw', sample_rate:8000}` for mu-law 8 kHz. Throws
 * ProviderError (retryable, so the router can try another provider) when Cartesia cannot
 * produce `format` (another sample rate, or more than one channel).
 */
export function wireOutputFormat(provider: string, format: AudioFormat): WireRawOutputFormat {
  if (!CARTESIA_SAMPLE_RATES.includes(format.sampleRate) || (format.channels ?? 1) !== 1) {
    throw new ProviderError(`Provider '${provider}' (Cartesia) cannot produce ${formatLabel(format)}`, {
      provider,
      retryable: true,
    });
  }
  return { container: 'raw', encoding: WIRE_ENCODING[format.encoding], sample_rate: format.sampleRate };
}
