import { RequestError } from '../errors/request-error.js';
import type { ChatRequest, SttRequest, TtsRequest } from '../types/requests.js';

/** Encodings voxroute reads and writes (see AudioEncoding). */
const ENCODINGS = new Set(['pcm_s16le', 'pcm_f32le', 'mulaw', 'alaw']);
/** Sample rates accepted, in Hz: whole numbers from telephony's 8 kHz to 192 kHz. */
const MIN_RATE = 8000;
const MAX_RATE = 192_000;
const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/** The first problem of a tts() request, or undefined when it is valid. */
export function ttsRequestProblem(request: TtsRequest): RequestError | undefined {
  return (
    objectProblem(request) ??
    (typeof request.text !== 'string' && !isAsyncIterable(request.text)
      ? new RequestError(
          'text',
          `expected a string or an AsyncIterable<string>, got ${describe(request.text)}`,
        )
      : undefined) ??
    (typeof request.voice !== 'string' || request.voice === ''
      ? new RequestError('voice', `expected a voice name, got ${describe(request.voice)}`)
      : undefined) ??
    (request.format !== undefined ? formatProblem(request.format, 'format') : undefined) ??
    languageProblem(request.language) ??
    (request.speed !== undefined &&
    !(typeof request.speed === 'number' && request.speed > 0 && Number.isFinite(request.speed))
      ? new RequestError('speed', `expected a number above 0, got ${describe(request.speed)}`)
      : undefined) ??
    callOptionsProblem(request)
  );
}

/** The first problem of an stt() request, or undefined when it is valid. */
export function sttRequestProblem(request: SttRequest): RequestError | undefined {
  return (
    objectProblem(request) ??
    (!isAsyncIterable(request.audio)
      ? new RequestError(
          'audio',
          `expected an AsyncIterable of Uint8Array or AudioChunk, got ${describe(request.audio)}`,
        )
      : undefined) ??
    (request.format === undefined
      ? new RequestError('format', 'required: the encoding and sample rate of the audio')
      : formatProblem(request.format, 'format')) ??
    languageProblem(request.language) ??
    (request.interim !== undefined && typeof request.interim !== 'boolean'
      ? new RequestError('interim', `expected a boolean, got ${describe(request.interim)}`)
      : undefined) ??
    callOptionsProblem(request)
  );
}

/** The first problem of a chat() request, or undefined when it is valid. */
export function chatRequestProblem(request: ChatRequest): RequestError | undefined {
  const base = objectProblem(request);
  if (base) return base;
  if (!Array.isArray(request.messages) || request.messages.length === 0)
    return new RequestError(
      'messages',
      `expected a non-empty array of messages, got ${describe(request.messages)}`,
    );
  for (const [i, m] of request.messages.entries()) {
    if (typeof m !== 'object' || m === null)
      return new RequestError(`messages.${i}`, `expected a message object, got ${describe(m)}`);
    if (!ROLES.has(m.role as string))
      return new RequestError(
        `messages.${i}.role`,
        `expected system, user, assistant or tool, got ${describe(m.role)}`,
      );
    if (typeof m.content !== 'string')
      return new RequestError(`messages.${i}.content`, `expected a string, got ${describe(m.content)}`);
  }
  if (typeof request.model !== 'string' || request.model === '')
    return new RequestError('model', `expected a model name, got ${describe(request.model)}`);
  if (request.maxTokens !== undefined && !(Number.isInteger(request.maxTokens) && request.maxTokens > 0))
    return new RequestError(
      'maxTokens',
      `expected a whole number above 0, got ${describe(request.maxTokens)}`,
    );
  if (
    request.temperature !== undefined &&
    !(typeof request.temperature === 'number' && request.temperature >= 0 && request.temperature <= 2)
  )
    return new RequestError(
      'temperature',
      `expected a number from 0 to 2, got ${describe(request.temperature)}`,
    );
  if (request.tools !== undefined && !Array.isArray(request.tools))
    return new RequestError('tools', `expected an array of tools, got ${describe(request.tools)}`);
  return callOptionsProblem(request);
}

function objectProblem(request: unknown): RequestError | undefined {
  return typeof request === 'object' && request !== null
    ? undefined
    : new RequestError('(request)', `expected a request object, got ${describe(request)}`);
}

/** Problems of an AudioFormat at `field`. */
export function formatProblem(format: unknown, field: string): RequestError | undefined {
  if (typeof format !== 'object' || format === null)
    return new RequestError(field, `expected { encoding, sampleRate }, got ${describe(format)}`);
  const f = format as Record<string, unknown>;
  if (!ENCODINGS.has(f.encoding as string))
    return new RequestError(
      `${field}.encoding`,
      `expected pcm_s16le, pcm_f32le, mulaw or alaw, got ${describe(f.encoding)}`,
    );
  const rate = f.sampleRate;
  if (typeof rate !== 'number' || !Number.isInteger(rate) || rate < MIN_RATE || rate > MAX_RATE)
    return new RequestError(
      `${field}.sampleRate`,
      `expected a whole number of Hz from ${MIN_RATE} to ${MAX_RATE}, got ${describe(rate)}`,
    );
  if (f.channels !== undefined && f.channels !== 1)
    return new RequestError(`${field}.channels`, `only mono (1) is supported, got ${describe(f.channels)}`);
  return undefined;
}

function languageProblem(language: unknown): RequestError | undefined {
  if (language === undefined) return undefined;
  if (typeof language === 'string' && language !== '') {
    try {
      Intl.getCanonicalLocales(language);
      return undefined;
    } catch {
      // not a well-formed BCP 47 tag
    }
  }
  return new RequestError(
    'language',
    `expected a BCP 47 language tag such as 'en', got ${describe(language)}`,
  );
}

function callOptionsProblem(request: {
  signal?: unknown;
  route?: unknown;
  deadlineMs?: unknown;
}): RequestError | undefined {
  if (
    request.signal !== undefined &&
    (typeof request.signal !== 'object' ||
      request.signal === null ||
      typeof (request.signal as AbortSignal).addEventListener !== 'function')
  )
    return new RequestError('signal', `expected an AbortSignal, got ${describe(request.signal)}`);
  if (request.route !== undefined && (typeof request.route !== 'string' || request.route === ''))
    return new RequestError('route', `expected a route name, got ${describe(request.route)}`);
  if (
    request.deadlineMs !== undefined &&
    !(typeof request.deadlineMs === 'number' && request.deadlineMs > 0 && Number.isFinite(request.deadlineMs))
  )
    return new RequestError(
      'deadlineMs',
      `expected a number of ms above 0, got ${describe(request.deadlineMs)}`,
    );
  return undefined;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function'
  );
}

/** A short description of a value for a message: its type and, for short primitives, the value. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return value.length <= 24 ? JSON.stringify(value) : 'a long string';
    case 'number':
    case 'boolean':
    case 'undefined':
      return String(value);
    default:
      return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
  }
}
