import { wavHeader } from '../../audio/wav-writer.js';
import type { AudioFormat } from '../../types/audio.js';
import type { MockErrorEvent } from '../mock-script.js';
import type { BodyPlan } from '../scripted-body.js';
import { base64, sseFrame } from '../sse.js';
import {
  type CartesiaMockSpeech,
  type CartesiaWordTimestamps,
  MOCK_SAMPLE_RATES,
  mockCartesiaAudio,
  mockWordTimestamps,
  slices,
  WIRE_TO_ENCODING,
} from './audio.js';
import { errorEventPayload } from './errors.js';

/** A request the mock refuses: HTTP status and message. */
export interface HttpProblem {
  status: number;
  message: string;
}

/** What the HTTP plans need besides the body. */
export interface TtsHttpInput {
  chunkBytes: number;
  speech: CartesiaMockSpeech;
  errorEvent: MockErrorEvent | undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The checked fields of a TTS body. */
interface TtsFields {
  transcript: string;
  container: 'raw' | 'wav';
  format: AudioFormat;
  body: Record<string, unknown>;
}

/** Checks a TTS body (PROTOCOLS.md 1.2, 1.3): the fields, or the reason for a 400. */
function ttsFields(body: unknown, rawOnly: boolean): TtsFields | HttpProblem {
  const bad = (message: string): HttpProblem => ({ status: 400, message });
  if (!isObject(body)) return bad('Request body must be a JSON object');
  if (typeof body.model_id !== 'string' || body.model_id === '') return bad('model_id is required');
  if (typeof body.transcript !== 'string' || body.transcript.trim() === '')
    return bad('transcript must not be empty');
  const voice = body.voice;
  if (!isObject(voice) || voice.mode !== 'id' || typeof voice.id !== 'string' || voice.id === '') {
    return bad('voice must be {"mode":"id","id":"<voice id>"}');
  }
  const output = body.output_format;
  if (!isObject(output)) return bad('output_format is required');
  if (rawOnly && output.container !== 'raw')
    return bad('output_format.container must be "raw" on this endpoint');
  if (output.container === 'mp3') return bad('mp3 is not served by the mock server: use raw or wav');
  if (output.container !== 'raw' && output.container !== 'wav') {
    return bad(`output_format.container ${JSON.stringify(output.container)} is not supported`);
  }
  const encoding = typeof output.encoding === 'string' ? WIRE_TO_ENCODING[output.encoding] : undefined;
  if (!encoding) return bad(`output_format.encoding ${JSON.stringify(output.encoding)} is not supported`);
  if (typeof output.sample_rate !== 'number' || !MOCK_SAMPLE_RATES.includes(output.sample_rate)) {
    return bad(`output_format.sample_rate ${JSON.stringify(output.sample_rate)} is not supported`);
  }
  return {
    transcript: body.transcript,
    container: output.container,
    format: { encoding, sampleRate: output.sample_rate },
    body,
  };
}

const isProblem = (value: TtsFields | HttpProblem): value is HttpProblem => 'status' in value;

/**
 * The plan of a `POST /tts/bytes` answer (PROTOCOLS.md 1.3): `mockCartesiaAudio` of the
 * transcript in the requested format, as raw samples (`Content-Type: application/octet-stream`;
 * Cartesia's real type for raw is UNCONFIRMED) or as a WAV stream (`audio/wav`, a 44-byte header
 * with the placeholder sizes of a stream whose length is not known ahead), cut in `chunkBytes`
 * pieces. `mp3` and bad bodies are a 400.
 */
export function bytesPlan(body: unknown, input: TtsHttpInput): BodyPlan | HttpProblem {
  const fields = ttsFields(body, false);
  if (isProblem(fields)) return fields;
  const audio = mockCartesiaAudio(fields.transcript, fields.format, input.speech);
  const bytes = fields.container === 'wav' ? join(wavHeader(fields.format), audio) : audio;
  return {
    headers: { 'content-type': fields.container === 'wav' ? 'audio/wav' : 'application/octet-stream' },
    chunks: slices(bytes, input.chunkBytes),
  };
}

/**
 * The plan of a `POST /tts/sse` answer (PROTOCOLS.md 1.4): data-only frames,
 * `{"type":"chunk","data":<base64 of chunkBytes bytes>,"done":false,"status_code":206,
 * "step_time","context_id"}` per piece of audio; with `add_timestamps`, after each chunk a
 * `{"type":"timestamps","word_timestamps":{words,start,end}}` frame for the words that end
 * within the audio sent so far (see `mockWordTimestamps`); then
 * `{"type":"done","done":true,"status_code":200}`. Error frames: a Cartesia error event.
 * The container must be raw (else 400).
 */
export function ssePlan(body: unknown, input: TtsHttpInput): BodyPlan | HttpProblem {
  const fields = ttsFields(body, true);
  if (isProblem(fields)) return fields;
  const contextId = typeof fields.body.context_id === 'string' ? fields.body.context_id : null;
  const audio = mockCartesiaAudio(fields.transcript, fields.format, input.speech);
  const pieces = slices(audio, input.chunkBytes);
  const durationMs = fields.transcript.length * (input.speech.msPerCharacter ?? 60);
  const all = mockWordTimestamps(fields.transcript, 0, fields.transcript.length, input.speech);
  const stamps = fields.body.add_timestamps === true;
  const chunks: Uint8Array[] = [];
  let next = 0;
  let sentBytes = 0;
  const stampUntil = (seconds: number) => {
    const from = next;
    while (next < all.words.length && all.end[next]! <= seconds) next++;
    if (next > from) chunks.push(timestampsFrame(all, from, next, contextId));
  };
  for (const piece of pieces) {
    chunks.push(
      sseFrame({
        type: 'chunk',
        data: base64(piece),
        done: false,
        status_code: 206,
        step_time: 10,
        context_id: contextId,
      }),
    );
    sentBytes += piece.byteLength;
    if (stamps) stampUntil((durationMs * sentBytes) / audio.byteLength / 1000);
  }
  if (stamps) stampUntil(Number.POSITIVE_INFINITY);
  return {
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
    chunks,
    closing: [sseFrame({ type: 'done', done: true, status_code: 200, context_id: contextId })],
    errorFrames: [sseFrame(errorEventPayload(input.errorEvent, contextId))],
  };
}

/** A `timestamps` frame with words `from` (inclusive) to `to` (exclusive) of `all`. */
function timestampsFrame(
  all: CartesiaWordTimestamps,
  from: number,
  to: number,
  contextId: string | null,
): Uint8Array {
  const word_timestamps = {
    words: all.words.slice(from, to),
    start: all.start.slice(from, to),
    end: all.end.slice(from, to),
  };
  return sseFrame({
    type: 'timestamps',
    word_timestamps,
    done: false,
    status_code: 206,
    context_id: contextId,
  });
}

function join(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a, 0);
  out.set(b, a.byteLength);
  return out;
}
