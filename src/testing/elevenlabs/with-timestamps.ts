import type { BodyPlan } from '../scripted-body.js';
import type { MockProblem } from './http.js';
import { streamPlan } from './http.js';

const encoder = new TextEncoder();

/** Character alignment of one piece, in seconds from the start of the audio (ELJS `CharacterAlignmentResponseModel`). */
interface Alignment {
  characters: string[];
  character_start_times_seconds: number[];
  character_end_times_seconds: number[];
}

/**
 * The plan of a `POST /v1/text-to-speech/{voice_id}/stream/with-timestamps` answer (what the
 * official SDK's `textToSpeech.streamWithTimestamps()` calls): the same audio and checks as
 * `/stream` (see `streamPlan`), sent as newline-delimited JSON objects
 * `{"audio_base64","alignment","normalized_alignment"}`, one a chunk of `chunkBytes` audio
 * bytes. Each chunk's alignment holds the characters whose start falls within its audio; the
 * characters are spread evenly over the whole audio. Content type `application/json`.
 */
export function withTimestampsPlan(...args: Parameters<typeof streamPlan>): BodyPlan | MockProblem {
  const audio = streamPlan(...args);
  if ('status' in audio && !('chunks' in audio)) return audio;
  const plan = audio as BodyPlan;
  const text = (args[1] as { text: string }).text;
  const total = plan.chunks.reduce((n, c) => n + c.byteLength, 0);
  const chars = Array.from(text);
  const bytesPerChar = chars.length > 0 ? total / chars.length : 0;
  const seconds = (bytes: number) =>
    Math.round((bytes / total) * durationSeconds(args[0], total) * 1000) / 1000;
  let offset = 0;
  let next = 0;
  const chunks = plan.chunks.map((chunk) => {
    const end = offset + chunk.byteLength;
    const alignment: Alignment = {
      characters: [],
      character_start_times_seconds: [],
      character_end_times_seconds: [],
    };
    while (next < chars.length && next * bytesPerChar < end) {
      alignment.characters.push(chars[next]!);
      alignment.character_start_times_seconds.push(seconds(next * bytesPerChar));
      alignment.character_end_times_seconds.push(seconds((next + 1) * bytesPerChar));
      next++;
    }
    offset = end;
    const line = {
      audio_base64: Buffer.from(chunk).toString('base64'),
      alignment,
      normalized_alignment: alignment,
    };
    return encoder.encode(`${JSON.stringify(line)}\n`);
  });
  return { headers: { 'content-type': 'application/json' }, chunks };
}

/** Duration in seconds of `bytes` of audio in the raw `output_format` (pcm_*: 2 bytes a sample). */
function durationSeconds(outputFormat: string | null, bytes: number): number {
  const match = /_(\d+)$/.exec(outputFormat ?? '');
  const rate = Number(match?.[1] ?? 0);
  const bytesPerSample = outputFormat?.startsWith('pcm_') ? 2 : 1;
  return rate > 0 ? bytes / bytesPerSample / rate : 0;
}

/**
 * The plan of a `POST /v1/text-to-speech/{voice_id}/with-timestamps` answer (the official SDK's
 * `textToSpeech.convertWithTimestamps()`, ELJS `AudioWithTimestampsResponse`): the same audio
 * and checks as `/stream`, in one JSON object `{"audio_base64","alignment",
 * "normalized_alignment"}` holding the whole audio and every character's times, as
 * `withTimestampsPlan` spreads them. Content type `application/json`; the body is one chunk.
 */
export function convertWithTimestampsPlan(
  outputFormat: string | null,
  body: unknown,
  speech: Parameters<typeof streamPlan>[2],
): BodyPlan | MockProblem {
  const plan = withTimestampsPlan(outputFormat, body, speech, Number.MAX_SAFE_INTEGER);
  if (!('chunks' in plan)) return plan;
  const line = new TextDecoder().decode(plan.chunks[0]).trimEnd();
  return { headers: plan.headers, chunks: [encoder.encode(line)] };
}
