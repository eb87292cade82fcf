import { callIsolated } from '../internal/isolated.js';
import type { Logger } from './router-types.js';

/**
 * The router's view of `RouterOptions.logger`: undefined when none was given; else a logger
 * whose every call is isolated ({@link callIsolated}): a logger that throws or rejects never
 * changes a call's outcome nor a provider's health. `debug` is called only when the given
 * logger has it.
 * @throws TypeError naming `logger` when it is not an object (or function) with a `warn`
 *   method, or has a `debug` that is not a function.
 */
export function routerLogger(logger: unknown): Logger | undefined {
  if (logger === undefined) return undefined;
  const given = logger as Partial<Record<'warn' | 'debug', unknown>> | null;
  const isObject = given !== null && (typeof given === 'object' || typeof given === 'function');
  if (
    !isObject ||
    typeof given.warn !== 'function' ||
    (given.debug !== undefined && typeof given.debug !== 'function')
  ) {
    throw new TypeError(
      `createRouter: options.logger must be an object with a warn(message, attributes) method (debug optional), got ${describe(logger)}`,
    );
  }
  const { warn, debug } = given as Logger;
  // Bound once here, not on every log call.
  const boundWarn = warn.bind(logger);
  const boundDebug = debug?.bind(logger);
  return {
    // As called (a call without attributes reaches the logger without them).
    warn: (...args) => callIsolated(boundWarn, args),
    ...(boundDebug ? { debug: (...args) => callIsolated(boundDebug, args) } : {}),
  };
}

/** A short, secret-free description of a value's shape. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') {
    const warn = (value as { warn?: unknown }).warn;
    return warn === undefined ? 'an object without warn' : `an object whose warn is ${typeof warn}`;
  }
  return typeof value;
}
