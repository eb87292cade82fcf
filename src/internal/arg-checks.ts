import { valueShape } from './value-shape.js';

/**
 * Checks of a public function's arguments from untyped code, so that a wrong one is a TypeError
 * naming the function and the argument (`readWav(source, options?): source must be an async
 * iterable of Uint8Array, got null`) rather than an engine error from deep inside it ("Cannot
 * read properties of null"). `where` is the call as the message starts it
 * (`readWav(source, options?): source`); `shape` what was expected. Values are shown by their
 * type only (valueShape), never their content.
 */

/** A TypeError `<where> must be <shape>, got <the value's type>`. */
export function argTypeError(where: string, shape: string, value: unknown): TypeError {
  return new TypeError(`${where} must be ${shape}, got ${valueShape(value)}`);
}

/** Throws {@link argTypeError} unless `value` is a non-null object (not an array). */
export function checkObject(where: string, shape: string, value: unknown): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw argTypeError(where, shape, value);
}

/** As {@link checkObject}, undefined allowed (an options argument that may be left out). */
export function checkOptionalObject(where: string, shape: string, value: unknown): void {
  if (value !== undefined) checkObject(where, shape, value);
}

/** Throws {@link argTypeError} unless `value` is undefined or a function (an optional callback). */
export function checkOptionalFunction(where: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'function') throw argTypeError(where, 'a function', value);
}

/** Throws {@link argTypeError} unless `value` has `[Symbol.asyncIterator]` as a function. */
export function checkAsyncIterable(where: string, shape: string, value: unknown): void {
  if (
    (typeof value !== 'object' && typeof value !== 'function') ||
    value === null ||
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] !== 'function'
  )
    throw argTypeError(where, shape, value);
}

/** Throws {@link argTypeError} unless `value` is a string. */
export function checkString(where: string, value: unknown): void {
  if (typeof value !== 'string') throw argTypeError(where, 'a string', value);
}

/** A Uint8Array (a Buffer too), of this realm or another (a vm context): by tag, not instanceof alone. */
export function isUint8Array(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array || Object.prototype.toString.call(value) === '[object Uint8Array]';
}
