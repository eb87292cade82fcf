import { MAX_TIMER_MS } from '../config-fields/fields.js';
import { RequestError } from '../errors/request-error.js';
import { jsonTextKind } from '../internal/json-object-text.js';
import { isLanguageTag, LANGUAGE_TAG_EXPECTED } from '../internal/language-tag.js';
import type { ToolCall } from '../types/chat.js';
import type { ChatRequest, SttRequest, TtsRequest } from '../types/requests.js';
import { loneSurrogateAt } from './lone-surrogate.js';
import {
  CHAT_REQUEST_KEYS,
  FORMAT_KEYS,
  messageKeyProblem,
  STT_REQUEST_KEYS,
  TOOL_CALL_KEYS,
  TOOL_KEYS,
  TTS_REQUEST_KEYS,
  unknownKeyProblem,
} from './request-keys.js';

/**
 * The speaking rates tts() takes (`speed`): OpenAI's range, the widest of the providers'. A
 * provider with a narrower one clamps (Cartesia 0.6 to 1.5, ElevenLabs 0.7 to 1.2).
 */
export const MIN_SPEED = 0.25;
export const MAX_SPEED = 4;

/** Encodings voxroute reads and writes (see AudioEncoding). */
const ENCODINGS = new Set(['pcm_s16le', 'pcm_f32le', 'mulaw', 'alaw']);
/** Sample rates accepted, in Hz: whole numbers from telephony's 8 kHz to 192 kHz. */
const MIN_RATE = 8000;
const MAX_RATE = 192_000;
const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/**
 * The longest text a tts() call takes as a string, in characters (UTF-16 code units): about
 * two hours of speech. A longer text is a RequestError before any provider is contacted.
 */
export const MAX_TTS_TEXT_LENGTH = 100_000;

/** The first problem of a tts() request, or undefined when it is valid. */
export function ttsRequestProblem(request: TtsRequest): RequestError | undefined {
  return (
    objectProblem(request) ??
    unknownKeyProblem(request, TTS_REQUEST_KEYS) ??
    (typeof request.text !== 'string' && !isAsyncIterable(request.text)
      ? new RequestError(
          'text',
          `expected a string or an AsyncIterable<string>, got ${describeStream(request.text, 'text')}`,
        )
      : undefined) ??
    (typeof request.text === 'string' && request.text.length > MAX_TTS_TEXT_LENGTH
      ? new RequestError(
          'text',
          `${request.text.length} characters, more than the ${MAX_TTS_TEXT_LENGTH} one call accepts (split the text into several calls)`,
        )
      : undefined) ??
    (typeof request.text === 'string' ? loneSurrogateProblem(request.text, 'text') : undefined) ??
    (typeof request.voice !== 'string' || request.voice === ''
      ? new RequestError('voice', `expected a voice name, got ${describe(request.voice)}`)
      : undefined) ??
    (request.format !== undefined ? formatProblem(request.format, 'format') : undefined) ??
    languageProblem(request.language) ??
    numberProblem(request.speed, 'speed', { min: MIN_SPEED, max: MAX_SPEED }) ??
    callOptionsProblem(request)
  );
}

/** The first problem of an stt() request, or undefined when it is valid. */
export function sttRequestProblem(request: SttRequest): RequestError | undefined {
  return (
    objectProblem(request) ??
    unknownKeyProblem(request, STT_REQUEST_KEYS) ??
    (!isAsyncIterable(request.audio)
      ? new RequestError(
          'audio',
          `expected an AsyncIterable of Uint8Array or AudioChunk, got ${describeStream(request.audio, 'audio')}`,
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
  const base = objectProblem(request) ?? unknownKeyProblem(request, CHAT_REQUEST_KEYS);
  if (base) return base;
  if (!Array.isArray(request.messages) || request.messages.length === 0)
    return new RequestError(
      'messages',
      `expected a non-empty array of messages, got ${describe(request.messages)}`,
    );
  /** Ids of the tool calls of the messages so far; made at the first assistant message with any. */
  let callIds: Set<string> | undefined;
  for (let i = 0; i < request.messages.length; i++) {
    const m = request.messages[i]!;
    if (typeof m !== 'object' || m === null)
      return new RequestError(`messages.${i}`, `expected a message object, got ${describe(m)}`);
    if (!ROLES.has(m.role as string))
      return new RequestError(
        `messages.${i}.role`,
        `expected system, user, assistant or tool, got ${describe(m.role)}`,
      );
    const unknown = messageKeyProblem(m, m.role, `messages.${i}.`);
    if (unknown) return unknown;
    if (typeof m.content !== 'string')
      return new RequestError(`messages.${i}.content`, `expected a string, got ${describe(m.content)}`);
    const halfCharacter = loneSurrogateProblem(m.content, `messages.${i}.content`);
    if (halfCharacter) return halfCharacter;
    const tools = messageToolProblem(m, `messages.${i}`, callIds);
    if (tools) return tools;
    if (m.role === 'assistant' && m.toolCalls !== undefined && m.toolCalls.length > 0) {
      callIds ??= new Set();
      for (const call of m.toolCalls) callIds.add(call.id);
    }
  }
  if (typeof request.model !== 'string' || request.model === '')
    return new RequestError('model', `expected a model name, got ${describe(request.model)}`);
  const numbers =
    numberProblem(request.maxTokens, 'maxTokens', { min: 0, aboveMin: true, whole: true }) ??
    numberProblem(request.temperature, 'temperature', { min: 0, max: 2 });
  if (numbers) return numbers;
  if (request.tools !== undefined) {
    if (!Array.isArray(request.tools))
      return new RequestError('tools', `expected an array of tools, got ${describe(request.tools)}`);
    for (let i = 0; i < request.tools.length; i++) {
      const bad = toolProblem(request.tools[i], `tools.${i}`) ?? duplicateToolNameProblem(request.tools, i);
      if (bad) return bad;
    }
  }
  return callOptionsProblem(request);
}

/**
 * The tool fields of a message: a `tool` message needs its `toolCallId`, the id of a tool call
 * of an earlier assistant message (`callIds`: those ids so far); an assistant's `toolCalls`,
 * when given, is an array of `{ id, name, arguments }`: id and name non-empty strings, the ids
 * of one message distinct, `arguments` the JSON text of one object (empty or white space: a call
 * without arguments, `{}`), as a model's tool call is (see jsonTextKind). Every provider's API
 * refuses anything else. Plain loops, no schema library: this runs on every call.
 */
function messageToolProblem(
  m: ChatRequest['messages'][number],
  at: string,
  callIds: ReadonlySet<string> | undefined,
): RequestError | undefined {
  if (m.role === 'tool')
    return (
      nameProblem(m.toolCallId, `${at}.toolCallId`, 'the id of the tool call answered') ??
      (callIds?.has(m.toolCallId)
        ? undefined
        : new RequestError(
            `${at}.toolCallId`,
            `${quoted(m.toolCallId)} is the id of no tool call of an earlier assistant message (${
              callIds ? `their ids: ${listed([...callIds])}` : 'none has tool calls'
            })`,
          ))
    );
  if (m.role !== 'assistant' || m.toolCalls === undefined) return undefined;
  if (!Array.isArray(m.toolCalls))
    return new RequestError(
      `${at}.toolCalls`,
      `expected an array of tool calls, got ${describe(m.toolCalls)}`,
    );
  for (let j = 0; j < m.toolCalls.length; j++) {
    const call = m.toolCalls[j]!;
    const field = `${at}.toolCalls.${j}`;
    if (typeof call !== 'object' || call === null || Array.isArray(call))
      return new RequestError(field, `expected { id, name, arguments }, got ${describe(call)}`);
    const bad =
      unknownKeyProblem(call, TOOL_CALL_KEYS, `${field}.`) ??
      nameProblem(call.id, `${field}.id`, 'a tool call id') ??
      duplicateIdProblem(m.toolCalls, j, `${field}.id`) ??
      nameProblem(call.name, `${field}.name`, 'a tool name') ??
      argumentsProblem(call.arguments, `${field}.arguments`);
    if (bad) return bad;
  }
  return undefined;
}

/** The RequestError when call `j` of `calls` has the id of an earlier call of the same message. */
function duplicateIdProblem(calls: readonly ToolCall[], j: number, field: string): RequestError | undefined {
  const id = calls[j]!.id;
  for (let k = 0; k < j; k++) {
    if (calls[k]?.id === id)
      return new RequestError(
        field,
        `${quoted(id)} is also the id of toolCalls.${k} of this message (each call needs its own id)`,
      );
  }
  return undefined;
}

/**
 * The RequestError when tool `i` of `tools` (each checked by toolProblem) has the name of an
 * earlier tool: providers refuse the request (Anthropic and DeepSeek answer 400 "Tool names must
 * be unique", Gemini "Duplicate function declaration"), and a model's call of that name could not
 * be told apart where they do not.
 */
function duplicateToolNameProblem(
  tools: ReadonlyArray<{ name: string }>,
  i: number,
): RequestError | undefined {
  const name = tools[i]!.name;
  for (let k = 0; k < i; k++) {
    if (tools[k]!.name === name)
      return new RequestError(
        `tools.${i}.name`,
        `${quoted(name)} is also the name of tools.${k} (each tool needs its own name)`,
      );
  }
  return undefined;
}

/**
 * The RequestError at `field` when `text` holds a lone UTF-16 surrogate (half a character, see
 * loneSurrogateAt): providers refuse such text. Its index is told, never the text.
 */
function loneSurrogateProblem(text: string, field: string): RequestError | undefined {
  const at = loneSurrogateAt(text);
  if (at < 0) return undefined;
  return new RequestError(
    field,
    `holds half a character at index ${at} (a lone UTF-16 surrogate, U+${text.charCodeAt(at).toString(16).toUpperCase()}: the text was cut inside an emoji or another character written as a surrogate pair), which providers refuse`,
  );
}

/** The RequestError when a tool call's `arguments` is not the JSON text of one object. */
function argumentsProblem(value: unknown, field: string): RequestError | undefined {
  if (typeof value !== 'string')
    return new RequestError(field, `expected the arguments as JSON text (a string), got ${describe(value)}`);
  const kind = jsonTextKind(value);
  if (kind === 'object' || kind === 'empty') return undefined;
  // The arguments may hold the user's data: their length is told, never their content.
  const got =
    kind === 'not-json'
      ? `text that is not JSON (${value.length} characters: cut short or malformed)`
      : kind === 'null'
        ? 'JSON null'
        : `a JSON ${kind}`;
  return new RequestError(
    field,
    `expected the arguments as the JSON text of one object (e.g. '{"city":"Paris"}'), got ${got}`,
  );
}

/** A name or id for a message: quoted, cut at 64 characters. */
function quoted(name: string): string {
  return `'${name.length > 64 ? `${name.slice(0, 64)}...` : name}'`;
}

/** Names for a message: the first 10, quoted, then how many more. */
function listed(names: readonly string[]): string {
  const shown = names.slice(0, 10).map(quoted).join(', ');
  return names.length > 10 ? `${shown} and ${names.length - 10} more` : shown;
}

/** A tool of `tools`: `{ name, description?, parameters }`, `parameters` a JSON Schema object. */
function toolProblem(tool: unknown, at: string): RequestError | undefined {
  if (typeof tool !== 'object' || tool === null || Array.isArray(tool))
    return new RequestError(at, `expected { name, description?, parameters }, got ${describe(tool)}`);
  const t = tool as Record<string, unknown>;
  return (
    unknownKeyProblem(t, TOOL_KEYS, `${at}.`) ??
    nameProblem(t.name, `${at}.name`, 'a tool name') ??
    (t.description !== undefined && typeof t.description !== 'string'
      ? new RequestError(`${at}.description`, `expected a string, got ${describe(t.description)}`)
      : undefined) ??
    (typeof t.parameters !== 'object' || t.parameters === null || Array.isArray(t.parameters)
      ? new RequestError(`${at}.parameters`, `expected a JSON Schema object, got ${describe(t.parameters)}`)
      : undefined)
  );
}

/** The RequestError at `field` when `value` is not a non-empty string (`what` names it). */
function nameProblem(value: unknown, field: string, what: string): RequestError | undefined {
  return typeof value === 'string' && value !== ''
    ? undefined
    : new RequestError(field, `expected ${what} (a non-empty string), got ${describe(value)}`);
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
  const unknown = unknownKeyProblem(f, FORMAT_KEYS, `${field}.`);
  if (unknown) return unknown;
  if (!ENCODINGS.has(f.encoding as string))
    return new RequestError(
      `${field}.encoding`,
      `expected pcm_s16le, pcm_f32le, mulaw or alaw, got ${describe(f.encoding)}`,
    );
  const rate =
    f.sampleRate === undefined
      ? new RequestError(
          `${field}.sampleRate`,
          `required: a whole number of Hz from ${MIN_RATE} to ${MAX_RATE}`,
        )
      : numberProblem(f.sampleRate, `${field}.sampleRate`, {
          min: MIN_RATE,
          max: MAX_RATE,
          whole: true,
          unit: 'Hz',
        });
  if (rate) return rate;
  if (f.channels !== undefined && f.channels !== 1)
    return new RequestError(`${field}.channels`, `only mono (1) is supported, got ${describe(f.channels)}`);
  return undefined;
}

/** The same rule as a provider config's `language` (isLanguageTag). */
function languageProblem(language: unknown): RequestError | undefined {
  if (language === undefined || isLanguageTag(language)) return undefined;
  return new RequestError('language', `expected ${LANGUAGE_TAG_EXPECTED}, got ${describe(language)}`);
}

/** What a number option of a request may be (see {@link numberProblem}). */
export interface NumberRule {
  /** Lowest value allowed (or, with `aboveMin`, the bound it must be above). */
  min: number;
  /** True: `min` itself is not allowed. Default false. */
  aboveMin?: boolean;
  /** Highest value allowed. Default: none (still finite). */
  max?: number;
  /** Why `max` is the limit, when it is not part of the field's meaning (e.g. a timer's). */
  maxReason?: string;
  /** True: only safe integers. Default false. */
  whole?: boolean;
  /** Unit named in the message, e.g. `ms`, `Hz`. */
  unit?: string;
}

/**
 * The RequestError at `field` when `value` (undefined: absent, valid) is not a finite number
 * that `rule` allows, e.g. `expected a number of ms above 0, got -1`; undefined when valid.
 * The one check of every number option of stt(), chat(), tts() and voiceTurn() requests.
 */
export function numberProblem(value: unknown, field: string, rule: NumberRule): RequestError | undefined {
  if (value === undefined) return undefined;
  const { min, aboveMin = false, max, whole = false, unit } = rule;
  const isNumber =
    typeof value === 'number' && Number.isFinite(value) && (!whole || Number.isSafeInteger(value));
  const inRange = isNumber && (aboveMin ? value > min : value >= min);
  if (inRange && (max === undefined || value <= max)) return undefined;
  const units = unit ? ` ${unit}` : '';
  if (inRange && rule.maxReason !== undefined)
    return new RequestError(
      field,
      `expected at most ${max}${units} (${rule.maxReason}), got ${describe(value)}`,
    );
  const kind = `${whole ? 'a whole number' : 'a number'}${unit ? ` of ${unit}` : ''}`;
  const upTo = max !== undefined && rule.maxReason === undefined ? ` to ${max}` : '';
  return new RequestError(
    field,
    `expected ${kind} ${aboveMin ? 'above' : 'from'} ${min}${upTo}, got ${describe(value)}`,
  );
}

/**
 * A duration option in ms: a finite number above 0 (or from 0 with `zero`), at most
 * MAX_TIMER_MS, the longest delay Node's timers honour (a longer one fires at once).
 */
export function msRule(zero = false): NumberRule {
  return {
    min: 0,
    aboveMin: !zero,
    max: MAX_TIMER_MS,
    maxReason: 'the longest timer Node.js supports',
    unit: 'ms',
  };
}

function callOptionsProblem(request: {
  signal?: unknown;
  route?: unknown;
  deadlineMs?: unknown;
  firstChunkTimeoutMs?: unknown;
  hedgeAfterMs?: unknown;
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
  return (
    numberProblem(request.deadlineMs, 'deadlineMs', msRule()) ??
    numberProblem(request.firstChunkTimeoutMs, 'firstChunkTimeoutMs', msRule()) ??
    // 0 starts the hedge at once, beside the first attempt.
    numberProblem(request.hedgeAfterMs, 'hedgeAfterMs', msRule(true))
  );
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function'
  );
}

/**
 * {@link describe} for a field that takes an async iterable (`audio` or `text`), with how to pass
 * what was given when it is a whole buffer (named by its class: `a Buffer`) or a sync iterable (an
 * array of chunks); never its content.
 */
function describeStream(value: unknown, field: 'audio' | 'text'): string {
  if (ArrayBuffer.isView(value)) {
    const name = value.constructor?.name || 'typed array';
    const shape = `${/^[AEIO]/.test(name) ? 'an' : 'a'} ${name}`;
    return field === 'audio'
      ? `${shape} (the whole audio at once: pass an async iterable of its chunks, such as (async function* () { yield audio; })())`
      : `${shape} (bytes, not text: decode them to a string)`;
  }
  if (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Iterable<unknown>)[Symbol.iterator] === 'function'
  )
    return `${describe(value)} (a sync iterable: pass an async iterable, such as (async function* () { yield* chunks; })())`;
  return describe(value);
}

/** A short description of a value for a message: its type and, for short primitives, the value. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : 'an array';
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
