import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EngineOptions, EngineSpawner } from './engines.js';

/** Settings every route reads, resolved from the server options. */
export interface ServerSettings {
  /** Gap between streamed chat words, in ms. */
  chatWordGapMs: number;
  /** Wall clock in ms since the epoch, for `created` fields. */
  now: () => number;
  /** Where the engine binaries are. */
  engines: EngineOptions;
}

/** What a route handler gets for one request. */
export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Aborted when the client goes away before the response has finished. */
  signal: AbortSignal;
  settings: ServerSettings;
  spawner: EngineSpawner;
  /** A new id `<prefix>-<n>`, with `n` counting up from 1 per server (deterministic for tests). */
  nextId: (prefix: string) => string;
}
