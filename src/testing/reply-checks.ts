import { fixedPieces } from './openai/text-pieces.js';
import type { PerCall } from './per-call.js';

/**
 * Tool-call arguments as the chat mocks take them (OpenAI `toolCalls[].arguments`, Anthropic
 * `toolUses[].input`): an object (sent as its JSON text), the JSON text, or the exact pieces.
 */
export type MockToolArguments = Record<string, unknown> | string | string[];

/** The pieces `value` streams as: an array as given, else the JSON text in pieces of 10 characters. */
export function toolArgumentPieces(value: MockToolArguments): string[] {
  if (Array.isArray(value)) return value;
  return fixedPieces(typeof value === 'string' ? value : JSON.stringify(value), 10);
}

/** The values of `spec` known when the mock is made: the one value, or the array's entries (a function's are not). */
export function fixedValues<T>(spec: PerCall<T, never> | undefined): Array<[suffix: string, value: T]> {
  if (spec === undefined || typeof spec === 'function') return [];
  if (Array.isArray(spec)) return (spec as readonly T[]).map((value, index) => [`.${index}`, value]);
  return [['', spec as T]];
}

/** The field path and problem of each bad-option TypeError, so a caller can name where the options were. */
const optionErrors = new WeakMap<TypeError, { path: string; problem: string }>();

/** The TypeError of a bad mock option: `<path>: <problem>` (e.g. `expected a number`). Internal to the kit. */
export function mockOptionError(path: string, problem: string): TypeError {
  const error = new TypeError(`${path || 'options'}: ${problem}`);
  optionErrors.set(error, { path, problem });
  return error;
}

/**
 * Runs the option checks of a mock factory, naming the factory in the message of a bad
 * option's TypeError (`createCartesiaMock: options.script.closeCode: expected a number`), as
 * `startMockProviders` and `startMockServer` name themselves. The error keeps the field's path
 * relative to the factory's options for {@link optionErrorOf}, so `startMockProviders` can name
 * the provider's options instead when it made the mock.
 */
export function checkingFactoryOptions(factory: string, check: () => void): void {
  try {
    check();
  } catch (error) {
    const option = optionErrorOf(error);
    if (!option) throw error;
    const named = new TypeError(
      `${factory}: options${option.path ? `.${option.path}` : ''}: ${option.problem}`,
    );
    optionErrors.set(named, option);
    throw named;
  }
}

/** The path and problem of `error` when {@link mockOptionError} made it. */
export function optionErrorOf(error: unknown): { path: string; problem: string } | undefined {
  return error instanceof TypeError ? optionErrors.get(error) : undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/** The names of a chat reply's fields that differ by wire: OpenAI's or Anthropic's. */
export interface ReplyFields {
  /** The tool calls' field (`toolCalls`, `toolUses`). */
  tools: string;
  /** A tool call's arguments field (`arguments`, `input`). */
  args: string;
  /** The field of why the reply ended (`finishReason`, `stopReason`) and the wire's values of it. */
  end: { field: string; values: readonly string[] };
}

/**
 * Checks a chat mock's reply (a string or `{text, deltas, <tools>: [{id, name, <args>}],
 * <end>}`) and throws a TypeError naming the field path, e.g. `chat.toolCalls.0.arguments:
 * expected a string (JSON text), an array of strings or an object`, or `chat.finishReason:
 * expected one of stop, length, tool_calls, content_filter`. Called when a mock is made, so a
 * bad option never turns into a 500 (or a reason the wire does not have) at request time.
 */
export function checkChatReply(reply: unknown, path: string, fields: ReplyFields): void {
  const { tools, args, end } = fields;
  if (reply === undefined || typeof reply === 'string') return;
  function fail(field: string, expected: string): never {
    throw mockOptionError(`${path}${field}`, `expected ${expected}`);
  }
  if (!isRecord(reply)) fail('', 'a string or a reply object');
  if (reply.text !== undefined && typeof reply.text !== 'string') fail('.text', 'a string');
  if (reply.deltas !== undefined && !isStrings(reply.deltas)) fail('.deltas', 'an array of strings');
  const reason = reply[end.field];
  if (reason !== undefined && !end.values.includes(reason as string))
    fail(`.${end.field}`, `one of ${end.values.join(', ')}`);
  const list = reply[tools];
  if (list === undefined) return;
  if (!Array.isArray(list)) fail(`.${tools}`, 'an array');
  for (const [index, tool] of list.entries()) {
    const at = `.${tools}.${index}`;
    if (!isRecord(tool)) fail(at, 'an object');
    if (typeof tool.name !== 'string' || tool.name === '') fail(`${at}.name`, 'a non-empty string');
    if (tool.id !== undefined && typeof tool.id !== 'string') fail(`${at}.id`, 'a string');
    const value = tool[args];
    if (typeof value !== 'string' && !isStrings(value) && !isRecord(value)) {
      fail(`${at}.${args}`, 'a string (JSON text), an array of strings or an object');
    }
  }
}

/** {@link checkChatReply} on every value of `spec` known at creation (`path` names the option). */
export function checkChatReplies(
  spec: PerCall<unknown, never> | undefined,
  path: string,
  fields: ReplyFields,
): void {
  for (const [suffix, reply] of fixedValues(spec)) checkChatReply(reply, `${path}${suffix}`, fields);
}
