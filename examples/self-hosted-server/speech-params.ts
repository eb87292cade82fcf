import { ApiError } from './api-error.js';

/** espeak-ng's default speaking rate, in words per minute (`espeak-ng --help`: `-s`, default 175). */
export const ESPEAK_DEFAULT_WPM = 175;

/** Slowest rate espeak-ng speaks at, in words per minute; slower requests are clamped to it. */
export const ESPEAK_MIN_WPM = 80;

/** Longest `input` accepted, in characters (OpenAI's limit, PROTOCOLS.md 2.3). */
export const MAX_SPEECH_INPUT = 4096;

/**
 * OpenAI voice names mapped to espeak-ng voices (language plus a `+variant`), so clients that
 * send `alloy` or `nova` get a voice. Any other name is passed to espeak-ng as it is
 * (`espeak-ng --voices` lists them, e.g. `en-gb`, `en-us+f3`, `fr`).
 */
export const OPENAI_VOICES: Readonly<Record<string, string>> = {
  alloy: 'en-us',
  ash: 'en-us+m3',
  ballad: 'en-gb+m2',
  coral: 'en-us+f2',
  echo: 'en-us+m1',
  fable: 'en-gb-x-rp',
  onyx: 'en-us+m4',
  nova: 'en-us+f3',
  sage: 'en-gb+f1',
  shimmer: 'en-us+f4',
  verse: 'en-us+m2',
  marin: 'en-us+f5',
  cedar: 'en-us+m5',
};

/** Output formats this server makes: espeak-ng's own WAV, or OpenAI's `pcm` (24 kHz s16le mono, no header). */
export type SpeechFormat = 'wav' | 'pcm';

/** A checked speech request. */
export interface SpeechParams {
  input: string;
  /** The espeak-ng voice (after mapping OpenAI names). */
  voice: string;
  /** The voice as the client sent it, for error messages. */
  requestedVoice: string;
  format: SpeechFormat;
  /** espeak-ng `-s` value, in words per minute. */
  wordsPerMinute: number;
}

const VOICE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_+.-]{0,63}$/;

/**
 * Checks a `POST /v1/audio/speech` body (PROTOCOLS.md 2.3): `input` (1..4096 characters),
 * `voice` (string or `{id}`; default `alloy`), `response_format` (`wav` by default here, or
 * `pcm`; `mp3`, `opus`, `aac` and `flac` are refused since this server has no encoder),
 * `speed` (0.25..4, default 1, mapped to `175 * speed` words per minute and clamped to at
 * least 80), `stream_format` (`audio` only). `model` is not checked: espeak-ng is the only one.
 * Throws ApiError 400 naming the `param` at fault.
 */
export function parseSpeech(body: Record<string, unknown>): SpeechParams {
  const { input, voice, response_format: format, speed, stream_format: streamFormat } = body;
  if (typeof input !== 'string' || input.trim() === '') {
    throw new ApiError(400, "'input' must be a non-empty string.", { param: 'input', code: 'invalid_value' });
  }
  if (input.length > MAX_SPEECH_INPUT) {
    throw new ApiError(400, `'input' is longer than ${MAX_SPEECH_INPUT} characters.`, {
      param: 'input',
      code: 'string_above_max_length',
    });
  }
  let requestedVoice = 'alloy';
  if (typeof voice === 'string') requestedVoice = voice;
  else if (
    typeof voice === 'object' &&
    voice !== null &&
    typeof (voice as { id?: unknown }).id === 'string'
  ) {
    requestedVoice = (voice as { id: string }).id;
  } else if (voice !== undefined) {
    throw new ApiError(400, "'voice' must be a string.", { param: 'voice', code: 'invalid_value' });
  }
  const mapped = OPENAI_VOICES[requestedVoice] ?? requestedVoice;
  if (!VOICE_PATTERN.test(mapped)) {
    throw new ApiError(400, "'voice' is not a valid espeak-ng voice name.", {
      param: 'voice',
      code: 'invalid_value',
    });
  }
  if (format !== undefined && format !== 'wav' && format !== 'pcm') {
    throw new ApiError(
      400,
      `response_format '${String(format).slice(0, 20)}' is not supported here; use 'wav' (22050 Hz) or 'pcm' (24 kHz s16le).`,
      { param: 'response_format', code: 'unsupported_response_format' },
    );
  }
  if (streamFormat !== undefined && streamFormat !== 'audio') {
    throw new ApiError(400, "Only stream_format 'audio' is supported here.", {
      param: 'stream_format',
      code: 'unsupported_stream_format',
    });
  }
  let factor = 1;
  if (speed !== undefined) {
    if (typeof speed !== 'number' || !Number.isFinite(speed) || speed < 0.25 || speed > 4) {
      throw new ApiError(400, "'speed' must be a number from 0.25 to 4.0.", {
        param: 'speed',
        code: 'invalid_value',
      });
    }
    factor = speed;
  }
  return {
    input,
    voice: mapped,
    requestedVoice,
    format: format ?? 'wav',
    wordsPerMinute: Math.max(ESPEAK_MIN_WPM, Math.round(ESPEAK_DEFAULT_WPM * factor)),
  };
}
