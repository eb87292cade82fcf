import type { RecordedRequest } from './recorded-request.js';

/**
 * What a per-call function receives: `call` is the 1-based number of this call on the
 * endpoint (the first request to `/chat/completions` is call 1), `request` its record.
 *
 * @example
 * ```ts
 * const chat = ({ call, request }: CallContext) => `reply ${call} to ${request.path}`;
 * ```
 */
export interface CallContext {
  /** 1-based number of this call on the endpoint (WebSocket endpoints: of this connection). */
  call: number;
  /** The record of this call's request (method, URL, headers, body). */
  request: RecordedRequest;
}

/**
 * A value that may change from call to call:
 * - one value: used for every call;
 * - an array: entry `call - 1` for each call; calls past the end get `undefined` (the
 *   mock's default behaviour), so `[{ failTimes: 1 }]` scripts only the first call;
 * - a function of the {@link CallContext} (or a richer context where documented).
 *
 * @example
 * ```ts
 * const script: PerCall<MockScript> = ({ call }) => (call === 1 ? { resetAfterChunks: 2 } : {});
 * ```
 */
export type PerCall<T, C = CallContext> = T | readonly T[] | ((context: C) => T);

/**
 * The value of `spec` for the call in `context` (see {@link PerCall}); `undefined` when `spec`
 * is undefined or an array shorter than the call number.
 */
export function resolvePerCall<T, C extends { call: number }>(
  spec: PerCall<T, C> | undefined,
  context: C,
): T | undefined {
  if (spec === undefined) return undefined;
  if (typeof spec === 'function') return (spec as (context: C) => T)(context);
  if (Array.isArray(spec)) return (spec as readonly T[])[context.call - 1];
  return spec as T;
}

/**
 * The script of the call in `context`, `{}` when none; one piece of code for every mock.
 * `failTimes` N in one script for every call, or in a function's result, fails the endpoint's
 * calls 1..N. An array entry describes its own call only: N ≥ 1 fails that call, 0 keeps it
 * from failing. In an array entry or a function's result, `failStatus` with no `failTimes`
 * fails that call, so `[{}, {}, { failStatus: 500 }]` fails call 3 only.
 */
export function resolveScript<
  S extends { failTimes?: number; failStatus?: number },
  C extends { call: number },
>(spec: PerCall<S, C> | undefined, context: C): S {
  const script = resolvePerCall(spec, context) ?? ({} as S);
  if (typeof spec !== 'function' && !Array.isArray(spec)) return script;
  if (script.failTimes === undefined) {
    return script.failStatus === undefined ? script : { ...script, failTimes: context.call };
  }
  if (typeof spec === 'function') return script;
  return { ...script, failTimes: script.failTimes >= 1 ? context.call : 0 };
}
