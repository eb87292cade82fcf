import { firstUnknownKey } from '../config/did-you-mean.js';
import { RequestError } from '../errors/request-error.js';
import type { AudioFormat } from '../types/audio.js';
import type { ChatMessage, ChatTool, ToolCall } from '../types/chat.js';
import type { CallOptions, ChatRequest, SttRequest, TtsRequest } from '../types/requests.js';

const CALL_OPTION_KEYS = {
  signal: true,
  route: true,
  deadlineMs: true,
  firstChunkTimeoutMs: true,
  hedgeAfterMs: true,
} satisfies Record<keyof CallOptions, true>;

/** The fields of a tts() request (the compiler checks that none is missing or extra). */
export const TTS_REQUEST_KEYS: readonly string[] = Object.keys({
  ...CALL_OPTION_KEYS,
  text: true,
  voice: true,
  format: true,
  language: true,
  speed: true,
} satisfies Record<keyof TtsRequest, true>);

/** The fields of an stt() request. */
export const STT_REQUEST_KEYS: readonly string[] = Object.keys({
  ...CALL_OPTION_KEYS,
  audio: true,
  format: true,
  language: true,
  interim: true,
} satisfies Record<keyof SttRequest, true>);

/** The fields of a chat() request. */
export const CHAT_REQUEST_KEYS: readonly string[] = Object.keys({
  ...CALL_OPTION_KEYS,
  messages: true,
  model: true,
  maxTokens: true,
  temperature: true,
  tools: true,
} satisfies Record<keyof ChatRequest, true>);

/** The fields of a chat message of `role`. */
type MessageKeys<R extends ChatMessage['role']> = Record<keyof Extract<ChatMessage, { role: R }>, true>;

/**
 * The fields of a chat message, by role: a field of another shape (OpenAI's `tool_calls` or
 * `tool_call_id`, a `name`) would otherwise be dropped without a word, and the model would not
 * see it.
 */
export const MESSAGE_KEYS: Readonly<Record<ChatMessage['role'], readonly string[]>> = {
  system: Object.keys({ role: true, content: true } satisfies MessageKeys<'system'>),
  user: Object.keys({ role: true, content: true } satisfies MessageKeys<'user'>),
  assistant: Object.keys({ role: true, content: true, toolCalls: true } satisfies MessageKeys<'assistant'>),
  tool: Object.keys({ role: true, content: true, toolCallId: true } satisfies MessageKeys<'tool'>),
};

/**
 * The RequestError of the first field of `message` (a chat message of `role`, at `at`, e.g.
 * `messages.2.`) that its role does not have, or undefined: a field of another role says so
 * (`toolCallId` on a user message: "a field of tool messages, not of user messages"), any other
 * is an unknown field with a did-you-mean (see unknownKeyProblem). A field set to `undefined`
 * counts as unset.
 */
export function messageKeyProblem(
  message: object,
  role: ChatMessage['role'],
  at: string,
): RequestError | undefined {
  const known = MESSAGE_KEYS[role];
  const unknown = firstUnknownKey(message, known, true);
  if (unknown === undefined) return undefined;
  const owners = (Object.keys(MESSAGE_KEYS) as Array<ChatMessage['role']>).filter((r) =>
    MESSAGE_KEYS[r].includes(unknown.key),
  );
  if (owners.length === 0) return unknownKeyProblem(message, known, at);
  return new RequestError(
    `${at}${unknown.key}`,
    `a field of ${owners.join(' and ')} messages, not of ${role} messages; the fields of ${role === 'assistant' ? 'an' : 'a'} ${role} message are ${known.join(', ')}`,
  );
}

/** The fields of a tool of a chat request. */
export const TOOL_KEYS: readonly string[] = Object.keys({
  name: true,
  description: true,
  parameters: true,
} satisfies Record<keyof ChatTool, true>);

/** The fields of a tool call of an assistant message. */
export const TOOL_CALL_KEYS: readonly string[] = Object.keys({
  id: true,
  name: true,
  arguments: true,
} satisfies Record<keyof ToolCall, true>);

/** The fields of an AudioFormat. */
export const FORMAT_KEYS: readonly string[] = Object.keys({
  encoding: true,
  sampleRate: true,
  channels: true,
} satisfies Record<keyof AudioFormat, true>);

/**
 * The RequestError of the first own key of `value` that is not one of `known` (a misspelt field
 * would otherwise be ignored and its default used: `fromat` for `format` gives 24 kHz PCM to a
 * telephony app that asked for mu-law), with a did-you-mean when one is close; undefined when
 * every key is known. A key whose value is `undefined` counts as unset, as in the config.
 * `field` prefixes the key in the error's field (`format.` for a format's keys); `minEdits` as in
 * didYouMean.
 */
export function unknownKeyProblem(
  value: object,
  known: readonly string[],
  field = '',
  minEdits = 0,
): RequestError | undefined {
  const unknown = firstUnknownKey(value, known, true, minEdits);
  if (unknown === undefined) return undefined;
  const { key, near } = unknown;
  return new RequestError(
    `${field}${key}`,
    `unknown field${near ? ` (did you mean '${near}'?)` : ''}; the fields are ${known.join(', ')}`,
  );
}
