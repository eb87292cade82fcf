import type { MockErrorEvent } from '../mock-script.js';
import type { RecordedFile, RecordedFormValue } from '../recorded-request.js';
import type { BodyPlan } from '../scripted-body.js';
import { sseDone, sseFrame } from '../sse.js';
import type { RequestProblem } from './chat.js';
import { MOCK_CREATED } from './chat.js';
import type { OpenAiDialect } from './dialect.js';
import { errorEventFrames } from './dialect.js';
import { whisperLanguageName } from './language-name.js';
import { sentencePieces, wordPieces } from './text-pieces.js';
import { wavDurationSeconds } from './wav-duration.js';

/**
 * Default transcript of the mock's transcription endpoint: `'This is a mock transcript.'`.
 *
 * @example
 * ```ts
 * expect(await response.json()).toEqual({ text: DEFAULT_TRANSCRIPT });
 * ```
 */
export const DEFAULT_TRANSCRIPT = 'This is a mock transcript.';

interface TranscriptionInput {
  dialect: OpenAiDialect;
  call: number;
  text: string;
  errorEvent: MockErrorEvent | undefined;
}

function field(
  form: Record<string, RecordedFormValue | RecordedFormValue[]>,
  name: string,
): string | undefined {
  const value = form[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

/** Every string value of a form field (a repeated field, as `name[]` arrays are sent, in order). */
function fieldValues(form: Record<string, RecordedFormValue | RecordedFormValue[]>, name: string): string[] {
  const value = form[name];
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values.filter((v): v is string => typeof v === 'string');
}

/** Seconds rounded to the millisecond. */
const ms = (seconds: number): number => Math.round(seconds * 1000) / 1000;

/**
 * The words of `text` (leading and trailing punctuation left out, as Whisper's word timestamps
 * have it) with `start`/`end` in seconds: each word spans the share of `duration` that its
 * characters take in `text`, rounded to the millisecond.
 */
export function timedWords(
  text: string,
  duration: number,
): Array<{ word: string; start: number; end: number }> {
  const out: Array<{ word: string; start: number; end: number }> = [];
  if (text.length === 0) return out;
  for (const match of text.matchAll(/[\p{L}\p{N}'][^\s]*[\p{L}\p{N}']|[\p{L}\p{N}]/gu)) {
    const startChar = match.index;
    const endChar = startChar + match[0].length;
    out.push({
      word: match[0],
      start: ms((duration * startChar) / text.length),
      end: ms((duration * endChar) / text.length),
    });
  }
  return out;
}

/** The uploaded `file` of a transcription form, if there is one. */
export function uploadedFile(
  form: Record<string, RecordedFormValue | RecordedFormValue[]>,
): RecordedFile | undefined {
  const value = form.file;
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'object' ? first : undefined;
}

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/**
 * True when the server answers a transcription with `stream=true` as if it were not streamed:
 * OpenAI ignores `stream` for `whisper-1` (PROTOCOLS.md 2.4, OAS `CreateTranscriptionRequest`).
 * Self-hosted servers (the other dialects) stream whatever the model is called.
 */
function ignoresStream(dialect: OpenAiDialect, model: string): boolean {
  return dialect === 'openai' && model === 'whisper-1';
}

/** OpenAI's gpt transcription models (gpt-4o(-mini)-transcribe, dated, diarize), which make no `verbose_json`. */
const GPT_TRANSCRIBE = /^gpt-.*transcribe/;

/**
 * The 400 OpenAI answers when one of its gpt transcription models is asked for `verbose_json`
 * (PROTOCOLS.md 2.4; the body as quoted in openai/openai-dotnet#401 and vercel/ai#8214).
 */
function verboseJsonRefusal(model: string): { status: number; body: unknown } {
  return {
    status: 400,
    body: {
      error: {
        message: `response_format 'verbose_json' is not compatible with model '${model}'. Use 'json' or 'text' instead.`,
        type: 'invalid_request_error',
        param: 'response_format',
        code: 'unsupported_value',
      },
    },
  };
}

/**
 * `verbose_json`'s `language`: `english` when the request names none; in the openai dialect
 * Whisper's name of the request's code (`en` -> `english`, see `whisperLanguageName`), as
 * OpenAI answers; the other dialects echo the code sent.
 */
function verboseLanguage(language: string | undefined, dialect: OpenAiDialect): string {
  if (language === undefined) return 'english';
  return dialect === 'openai' ? whisperLanguageName(language) : language;
}

/**
 * The plan of a `POST /audio/transcriptions` answer for a multipart form (`file`, `model`,
 * `stream`, `language`, `response_format`, vLLM's `stream_include_usage`), saying `input.text`.
 * With `stream=true` (PROTOCOLS 2.4, 6.1, 6.3):
 * - openai (and kokoro): `transcript.text.delta` per word, then `transcript.text.done` with
 *   token usage; no `[DONE]`; except for `whisper-1` in the openai dialect, which ignores
 *   `stream` as OpenAI does and gets the answer below;
 * - vllm: `transcription.chunk` objects with `choices[0].delta.content` per word, a last chunk
 *   with `finish_reason: 'stop'`, a usage chunk when `stream_include_usage=true`, `[DONE]`;
 * - speaches: one `transcript.text.delta` per sentence (`logprobs: null`), then
 *   `transcript.text.done`; no `[DONE]`, no usage.
 * Without it: `json` `{"text"}`, `text` as text/plain, or `verbose_json` with `language` (see
 * `verboseLanguage`: `en` answered `english` in the openai dialect), `duration`
 * (from the WAV header when the file is a WAV, else 0) and, per `timestamp_granularities[]`
 * (repeatable: `segment`, the default, and/or `word`), `segments` (one per sentence) and
 * `words` (`[{word, start, end}]`, see `timedWords`).
 * A form without a file, another response_format, a granularity other than `word`/`segment`,
 * or granularities without `verbose_json` (OpenAI's rule) is a problem. In the openai dialect,
 * `verbose_json` from a gpt transcription model (`gpt-4o-transcribe`, ...) is OpenAI's own 400
 * body (`param: 'response_format'`, `code: 'unsupported_value'`): only Whisper makes it.
 */
export function transcriptionPlan(
  form: Record<string, RecordedFormValue | RecordedFormValue[]>,
  input: TranscriptionInput,
): BodyPlan | RequestProblem | { status: number; body: unknown } {
  const file = uploadedFile(form);
  if (file === undefined) return { status: 400, message: "'file' must be an uploaded file" };
  const model = field(form, 'model') ?? 'mock-transcriber';
  const { text, dialect } = input;
  const audioTokens = Math.max(1, Math.ceil(file.bytes.byteLength / 3200));

  if (field(form, 'stream') === 'true' && !ignoresStream(dialect, model)) {
    const errorFrames = errorEventFrames(dialect, input.errorEvent);
    const headers = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
    if (dialect === 'vllm') {
      const id = `trsc-mock-${input.call}`;
      const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
        sseFrame({ id, object: 'transcription.chunk', created: MOCK_CREATED, model, choices, ...extra });
      const choice = (content: string, finish: string | null) => ({
        delta: { content },
        finish_reason: finish,
        stop_reason: null,
      });
      const pieces = wordPieces(text);
      const closing = [chunk([choice('', 'stop')])];
      if (field(form, 'stream_include_usage') === 'true') {
        closing.push(
          chunk([], {
            usage: {
              prompt_tokens: audioTokens,
              completion_tokens: pieces.length,
              total_tokens: audioTokens + pieces.length,
            },
          }),
        );
      }
      closing.push(sseDone());
      return { headers, chunks: pieces.map((piece) => chunk([choice(piece, null)])), closing, errorFrames };
    }
    if (dialect === 'speaches') {
      return {
        headers,
        chunks: sentencePieces(text).map((delta) =>
          sseFrame({ type: 'transcript.text.delta', delta, logprobs: null }),
        ),
        closing: [sseFrame({ type: 'transcript.text.done', text, logprobs: null })],
        errorFrames,
      };
    }
    const pieces = wordPieces(text);
    const usage = {
      type: 'tokens',
      input_tokens: audioTokens,
      input_token_details: { text_tokens: 0, audio_tokens: audioTokens },
      output_tokens: pieces.length,
      total_tokens: audioTokens + pieces.length,
    };
    return {
      headers,
      chunks: pieces.map((delta) => sseFrame({ type: 'transcript.text.delta', delta })),
      closing: [sseFrame({ type: 'transcript.text.done', text, usage })],
      errorFrames,
    };
  }

  const format = field(form, 'response_format') ?? 'json';
  if (format === 'verbose_json' && dialect === 'openai' && GPT_TRANSCRIBE.test(model)) {
    return verboseJsonRefusal(model);
  }
  const granularities = fieldValues(form, 'timestamp_granularities[]');
  const unknown = granularities.find((g) => g !== 'word' && g !== 'segment');
  if (unknown !== undefined) {
    return {
      status: 400,
      message: `Invalid value '${unknown}' for timestamp_granularities[]: expected 'word' or 'segment'`,
    };
  }
  if (granularities.length > 0 && format !== 'verbose_json') {
    return { status: 400, message: "timestamp_granularities[] needs response_format 'verbose_json'" };
  }
  if (format === 'json') return { headers: { 'content-type': 'application/json' }, chunks: [json({ text })] };
  if (format === 'text') {
    return {
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      chunks: [new TextEncoder().encode(text)],
    };
  }
  if (format === 'verbose_json') {
    const duration = wavDurationSeconds(file.bytes) ?? 0;
    const wanted = granularities.length > 0 ? granularities : ['segment'];
    const body: Record<string, unknown> = {
      task: 'transcribe',
      language: verboseLanguage(field(form, 'language'), dialect),
      duration,
      text,
    };
    if (wanted.includes('word')) body.words = timedWords(text, duration);
    if (wanted.includes('segment')) {
      const sentences = sentencePieces(text);
      let start = 0;
      body.segments = sentences.map((sentence, id) => {
        const end = text.length === 0 ? 0 : start + (duration * sentence.length) / text.length;
        const segment = { id, start, end, text: sentence };
        start = end;
        return segment;
      });
    }
    return { headers: { 'content-type': 'application/json' }, chunks: [json(body)] };
  }
  return { status: 400, message: `response_format '${format}' is not served by the mock server` };
}
