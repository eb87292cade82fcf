import { wavDurationSeconds } from '../openai/wav-duration.js';
import type { RecordedFile, RecordedFormValue } from '../recorded-request.js';
import type { BodyPlan } from '../scripted-body.js';
import { mockRequestId } from './errors.js';
import { STT_BYTES_PER_SAMPLE } from './stt-session.js';
import type { HttpProblem } from './tts-http.js';

type Form = Record<string, RecordedFormValue | RecordedFormValue[]>;

/** What the batch plan needs besides the request. */
export interface SttBatchInput {
  /** The transcript of the uploaded audio (bytes as uploaded, container included). */
  transcript: (audio: Uint8Array) => string;
}

const values = (form: Form, name: string): RecordedFormValue[] => {
  const value = form[name];
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
};
const text = (form: Form, name: string): string | undefined => {
  const first = values(form, name)[0];
  return typeof first === 'string' ? first : undefined;
};

/** Seconds rounded to the millisecond. */
const seconds = (value: number): number => Math.round(value * 1000) / 1000;

/**
 * The plan of a batch `POST /stt` answer (cartesia-js `stt.transcribe`; PROTOCOLS.md 1.6): a
 * multipart form with `file` (required), `model` (required), `language` (default `en`) and
 * `timestamp_granularities[]` (only `word`), and the query's `encoding` and `sample_rate` (for
 * raw audio). The answer is JSON
 * `{"type":"transcript","text","duration","language","request_id"}`, plus
 * `"words":[{"word","start","end"}]` (seconds) when `word` timestamps were asked for.
 * `duration` (seconds) comes from the WAV header for a WAV file, from the byte count for raw
 * audio with `encoding` and `sample_rate`, else it is 0. Words split the duration evenly, each
 * lasting 80% of its share, rounded to the millisecond (as on the STT WebSocket).
 * A missing file or model, a granularity other than `word`, an unknown `encoding` or a bad
 * `sample_rate` is a 400.
 */
export function sttBatchPlan(
  form: Form | undefined,
  query: URLSearchParams,
  input: SttBatchInput,
): BodyPlan | HttpProblem {
  const bad = (message: string): HttpProblem => ({ status: 400, message });
  if (form === undefined) return bad('The request must be multipart/form-data with a file field');
  const file = values(form, 'file')[0];
  if (typeof file !== 'object') return bad('file is required (an uploaded audio file)');
  const model = text(form, 'model');
  if (model === undefined || model === '') return bad('model is required');
  const granularities = [
    ...values(form, 'timestamp_granularities[]'),
    ...values(form, 'timestamp_granularities'),
  ];
  const other = granularities.find((value) => value !== 'word');
  if (other !== undefined) {
    return bad(
      `timestamp_granularities must be "word", got ${JSON.stringify(typeof other === 'string' ? other : 'a file')}`,
    );
  }
  const encoding = query.get('encoding');
  const rate = query.get('sample_rate');
  if (encoding !== null && !(encoding in STT_BYTES_PER_SAMPLE)) {
    return bad(`encoding ${JSON.stringify(encoding)} is not supported`);
  }
  if (rate !== null && !(Number.isInteger(Number(rate)) && Number(rate) > 0)) {
    return bad('sample_rate must be a positive integer');
  }
  const bytes = (file as RecordedFile).bytes;
  const raw =
    encoding !== null && rate !== null
      ? bytes.byteLength / (STT_BYTES_PER_SAMPLE[encoding]! * Number(rate))
      : undefined;
  const duration = seconds(wavDurationSeconds(bytes) ?? raw ?? 0);
  const transcript = input.transcript(bytes).trim();
  const body: Record<string, unknown> = {
    type: 'transcript',
    text: transcript,
    duration,
    language: text(form, 'language') ?? 'en',
    request_id: mockRequestId(),
  };
  if (granularities.length > 0) {
    const words = transcript === '' ? [] : transcript.split(/\s+/);
    body.words = words.map((word, i) => ({
      word,
      start: seconds((i * duration) / words.length),
      end: seconds(((i + 0.8) * duration) / words.length),
    }));
  }
  return {
    headers: { 'content-type': 'application/json' },
    chunks: [new TextEncoder().encode(JSON.stringify(body))],
  };
}
