import { firstUnknownKey } from '../config/did-you-mean.js';
import { RequestError } from '../errors/request-error.js';
import type { AudioFormat } from '../types/audio.js';
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
