import { didYouMean, firstUnknownKey } from '../../config/did-you-mean.js';
import { isUint8Array } from '../../internal/arg-checks.js';
import { valueShape } from '../../internal/value-shape.js';
import type { SageMakerReply } from './types.js';

/**
 * Checks of what a test writes for the SageMaker emulator (endpoint helpers' options, replies),
 * so that a typo is a TypeError naming the call, the field and the allowed values when the
 * endpoint is made, instead of an endpoint that answers nothing (or another format) at request
 * time.
 */

/**
 * Throws a TypeError `<where>.<field> must be one of 'a', 'b', got "x" (did you mean "a"?)`
 * unless `value` is one of `allowed` (or undefined when `optional`).
 */
export function checkOneOf(
  where: string,
  field: string,
  value: unknown,
  allowed: readonly string[],
  optional: boolean,
): void {
  if (value === undefined && optional) return;
  if (typeof value === 'string' && allowed.includes(value)) return;
  const near = typeof value === 'string' ? nearest(value, allowed) : undefined;
  const got = typeof value === 'string' ? JSON.stringify(value) : valueShape(value);
  throw new TypeError(
    `${where}.${field} must be one of ${allowed.map((a) => `'${a}'`).join(', ')}, got ${got}${near ? ` (did you mean "${near}"?)` : ''}`,
  );
}

/** The value most likely meant: a near spelling, else the one value `value` begins (`openai` -> `openai-chat`). */
function nearest(value: string, allowed: readonly string[]): string | undefined {
  const near = didYouMean(value, allowed);
  if (near) return near;
  const folded = value.toLowerCase();
  const prefixed = allowed.filter((a) => folded !== '' && a.toLowerCase().startsWith(folded));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** Throws a TypeError `<where> has an unknown key "x" (did you mean "y"?); the keys are ...`. */
export function checkKnownKeys(where: string, value: object, known: readonly string[]): void {
  const unknown = firstUnknownKey(value, known, true);
  if (!unknown) return;
  throw new TypeError(
    `${where} has an unknown key "${unknown.key}"${unknown.near ? ` (did you mean "${unknown.near}"?)` : ''}; the keys are ${known.join(', ')}`,
  );
}

/**
 * What is wrong with `reply` as a SageMakerReply (`{ parts, closing?, contentType? }`, parts
 * strings or Uint8Arrays), as `<path>: <problem>`; undefined when it is one.
 */
export function sageMakerReplyProblem(reply: unknown, path: string): string | undefined {
  if (typeof reply !== 'object' || reply === null || Array.isArray(reply)) {
    return `${path} must be a reply object ({ parts, closing?, contentType? }), got ${valueShape(reply)}`;
  }
  const r = reply as Record<string, unknown>;
  const unknown = firstUnknownKey(r, ['parts', 'closing', 'contentType'], true);
  if (unknown) {
    return `${path} has an unknown key "${unknown.key}"${unknown.near ? ` (did you mean "${unknown.near}"?)` : ''}; the keys are parts, closing, contentType`;
  }
  for (const field of ['parts', 'closing'] as const) {
    const list = r[field];
    if (list === undefined && field === 'closing') continue;
    if (!Array.isArray(list)) {
      return `${path}.${field} must be an array of strings or Uint8Arrays, got ${valueShape(list)}`;
    }
    const bad = list.findIndex((part) => typeof part !== 'string' && !isUint8Array(part));
    if (bad >= 0) {
      return `${path}.${field}.${bad} must be a string or a Uint8Array, got ${valueShape(list[bad])}`;
    }
  }
  if (r.contentType !== undefined && typeof r.contentType !== 'string') {
    return `${path}.contentType must be a string, got ${valueShape(r.contentType)}`;
  }
  return undefined;
}

/**
 * Throws an Error with {@link sageMakerReplyProblem}'s message unless `reply` is a reply: a
 * per-call reply known only at request time (the emulator answers that call with a 500
 * `InternalFailure`, or a stream error, carrying the message).
 */
export function assertSageMakerReply(reply: unknown, path: string): asserts reply is SageMakerReply {
  const problem = sageMakerReplyProblem(reply, path);
  if (problem) throw new Error(problem);
}
