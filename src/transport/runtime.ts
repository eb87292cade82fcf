/**
 * What the transports need to know about the JavaScript runtime they run in. Read from the
 * globals by {@link detectRuntime}; tests pass a descriptor of their own.
 */
export interface RuntimeDescriptor {
  /** `'node'`, `'bun'` or `'deno'` (Bun and Deno also set `process.versions.node`). */
  name: 'node' | 'bun' | 'deno' | 'other';
  /** True when `globalThis.fetch` is a function. */
  hasFetch: boolean;
}

/** The client an HTTP transport sends its requests with. */
export type HttpClientKind = 'undici' | 'fetch';

/**
 * Describes the runtime from its globals: Bun sets `process.versions.bun`, Deno defines the
 * `Deno` global (both also set `process.versions.node`, so they are checked first).
 *
 * @param scope The global object to inspect. Default: `globalThis`.
 */
export function detectRuntime(scope: object = globalThis): RuntimeDescriptor {
  const g = scope as {
    Deno?: unknown;
    process?: { versions?: Record<string, string | undefined> };
    fetch?: unknown;
  };
  const versions = g.process?.versions;
  const name =
    typeof versions?.bun === 'string'
      ? 'bun'
      : g.Deno !== undefined
        ? 'deno'
        : typeof versions?.node === 'string'
          ? 'node'
          : 'other';
  return { name, hasFetch: typeof g.fetch === 'function' };
}

/**
 * The default HTTP client for a runtime: undici's dispatcher on Node (reaches the first body
 * byte sooner than fetch, and observes the connect phase); the runtime's own `fetch` on Bun
 * (Bun's built-in `undici` module has an Agent without `dispatch`), on Deno (undici over Deno's
 * Node compatibility layer is not what Deno users run, and its fetch was as fast on loopback)
 * and on any other runtime that has a global fetch. A runtime without fetch gets undici.
 */
export function defaultHttpClient(runtime: RuntimeDescriptor): HttpClientKind {
  if (runtime.name === 'node') return 'undici';
  return runtime.hasFetch ? 'fetch' : 'undici';
}

/**
 * True when `dispatcher` can drive the undici wire (has a `dispatch` method). Bun's `undici`
 * module is a stub whose Agent has none; the transport then falls back to the global fetch.
 */
export function canDispatch(dispatcher: unknown): boolean {
  return (
    typeof dispatcher === 'object' &&
    dispatcher !== null &&
    typeof (dispatcher as { dispatch?: unknown }).dispatch === 'function'
  );
}
