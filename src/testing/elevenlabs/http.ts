import type { AudioFormat } from '../../types/audio.js';
import type { BodyPlan } from '../scripted-body.js';
import { type MockElevenLabsSpeech, mockElevenLabsAudio } from './audio.js';
import { elevenLabsValidationErrorBody } from './errors.js';

/** An HTTP answer that is not audio: a status and its JSON body. */
export interface MockProblem {
  status: number;
  body: unknown;
}

/** The raw `output_format` names the mock serves and their formats (PROTOCOLS.md 4.2). */
export function mockOutputFormat(name: string): AudioFormat | undefined {
  const match = /^(pcm|ulaw|alaw)_(\d+)$/.exec(name);
  if (!match) return undefined;
  const rate = Number(match[2]);
  if (match[1] === 'pcm') {
    return [8000, 16000, 22050, 24000, 32000, 44100, 48000].includes(rate)
      ? { encoding: 'pcm_s16le', sampleRate: rate }
      : undefined;
  }
  if (rate !== 8000) return undefined;
  return { encoding: match[1] === 'ulaw' ? 'mulaw' : 'alaw', sampleRate: rate };
}

/**
 * The problem of an `output_format` the mock cannot serve: missing (ElevenLabs then sends MP3),
 * compressed (`mp3_*`, `opus_*`: the mock makes raw audio only) or unknown; a 422 validation
 * body at `query.output_format`.
 */
export function outputFormatProblem(name: string | null): MockProblem {
  const shown = name === null ? 'the default mp3_44100_128' : `'${name}'`;
  return {
    status: 422,
    body: elevenLabsValidationErrorBody(
      ['query', 'output_format'],
      `The mock server makes raw audio only (pcm_*, ulaw_8000, alaw_8000), not ${shown}`,
    ),
  };
}

/** Slices of `bytes` of at most `size` bytes. */
export function slices(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.byteLength; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

/**
 * The speed asked for in `voice_settings.speed`: 1 when absent; a problem (422) outside
 * ElevenLabs' 0.7..1.2 or when not a number.
 */
export function speedOf(settings: unknown, where: string): number | MockProblem {
  const speed = (settings as { speed?: unknown } | null | undefined)?.speed;
  if (speed === undefined || speed === null) return 1;
  if (typeof speed !== 'number' || speed < 0.7 || speed > 1.2) {
    return {
      status: 422,
      body: elevenLabsValidationErrorBody(
        [where, 'voice_settings', 'speed'],
        'must be a number from 0.7 to 1.2',
      ),
    };
  }
  return speed;
}

/**
 * The plan of a `POST /v1/text-to-speech/{voice_id}/stream` answer (PROTOCOLS.md 4.2), and of
 * the non-streaming `POST /v1/text-to-speech/{voice_id}` (the same request and audio), for the
 * query's `output_format` and the JSON body `{text, model_id?, voice_settings?, ...}`: the
 * mock's audio for `text` (see `mockElevenLabsAudio`) in that format, at
 * `voice_settings.speed`, cut in `chunkBytes` pieces, as `application/octet-stream`. A missing
 * or blank `text` (422 at `body.text`), a bad speed, or a format the mock does not make is a problem.
 */
export function streamPlan(
  outputFormat: string | null,
  body: unknown,
  speech: MockElevenLabsSpeech,
  chunkBytes: number,
): BodyPlan | MockProblem {
  const format = outputFormat === null ? undefined : mockOutputFormat(outputFormat);
  if (!format) return outputFormatProblem(outputFormat);
  const request = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (typeof request.text !== 'string' || request.text.trim() === '') {
    return {
      status: 422,
      body: elevenLabsValidationErrorBody(['body', 'text'], 'Field required', 'missing'),
    };
  }
  const speed = speedOf(request.voice_settings, 'body');
  if (typeof speed !== 'number') return speed;
  const audio = mockElevenLabsAudio(request.text, format, speech, speed);
  return {
    headers: { 'content-type': 'application/octet-stream' },
    chunks: slices(audio, Math.max(1, chunkBytes)),
  };
}
