import type { AudioFormat } from '../../types/audio.js';

/** Sample rates (Hz) of ElevenLabs' raw PCM `output_format`s `pcm_<rate>` (PROTOCOLS.md 4.2, ELJS). */
export const ELEVENLABS_PCM_RATES = [24_000, 16_000, 22_050, 44_100, 48_000, 32_000, 8_000] as const;

/**
 * The raw formats ElevenLabs produces, best first, as voxroute AudioFormats: PCM s16le mono at
 * each of {@link ELEVENLABS_PCM_RATES} (24 kHz first: the router's default), then G.711 mu-law
 * and A-law at 8 kHz (`ulaw_8000`, `alaw_8000`). Source: PROTOCOLS.md 4.2 (ELJS
 * `TextToSpeechStreamRequestOutputFormat`). The PCM sample format (16-bit little-endian) is
 * marked UNCONFIRMED there; every public client reads it so. MP3 and Opus are not offered (the
 * router wants raw samples). 44.1 kHz PCM needs ElevenLabs' Pro tier (ELOAS).
 */
export function elevenLabsOutputFormats(): AudioFormat[] {
  return [
    ...ELEVENLABS_PCM_RATES.map((sampleRate): AudioFormat => ({ encoding: 'pcm_s16le', sampleRate })),
    { encoding: 'mulaw', sampleRate: 8_000 },
    { encoding: 'alaw', sampleRate: 8_000 },
  ];
}

/**
 * The `output_format` value for `format`: `pcm_<rate>` for PCM s16le at one of
 * {@link ELEVENLABS_PCM_RATES}, `ulaw_8000` for mu-law 8 kHz, `alaw_8000` for A-law 8 kHz;
 * undefined for anything else (ElevenLabs cannot produce it natively).
 */
export function outputFormatName(format: AudioFormat): string | undefined {
  if ((format.channels ?? 1) !== 1) return undefined;
  switch (format.encoding) {
    case 'pcm_s16le':
      return (ELEVENLABS_PCM_RATES as readonly number[]).includes(format.sampleRate)
        ? `pcm_${format.sampleRate}`
        : undefined;
    case 'mulaw':
      return format.sampleRate === 8_000 ? 'ulaw_8000' : undefined;
    case 'alaw':
      return format.sampleRate === 8_000 ? 'alaw_8000' : undefined;
    default:
      return undefined;
  }
}

/**
 * The AudioFormat of a raw `output_format` name (`pcm_16000`, `ulaw_8000`, `alaw_8000`), or
 * undefined for compressed or unknown ones (`mp3_44100_128`, `opus_48000_64`, ...).
 */
export function formatOfOutputName(name: string): AudioFormat | undefined {
  const match = /^(pcm|ulaw|alaw)_(\d+)$/.exec(name);
  if (!match) return undefined;
  const rate = Number(match[2]);
  const format: AudioFormat =
    match[1] === 'pcm'
      ? { encoding: 'pcm_s16le', sampleRate: rate }
      : { encoding: match[1] === 'ulaw' ? 'mulaw' : 'alaw', sampleRate: rate };
  return outputFormatName(format) === name ? format : undefined;
}
