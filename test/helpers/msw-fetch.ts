import { type SetupServer, setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { AttemptContext } from '../../src/providers/types.js';
import { createHttpTransport } from '../../src/transport/index.js';
import type { HttpTransport } from '../../src/transport/types.js';

/** What {@link mswFetchTransport} gives a test file or describe block. */
export interface MswFetch {
  /** The msw server: `msw.use(...)` / `msw.resetHandlers(...)` set what it answers. */
  readonly msw: SetupServer;
  /** The HTTP transport over the global fetch (which msw intercepts); made in beforeAll. */
  readonly transport: HttpTransport;
  /** An attempt over `transport`: a fresh signal, an idle deadline of 5 s. */
  attempt(): AttemptContext;
}

/**
 * An msw server and an HTTP transport whose fetch is the global one, for the file or describe
 * block it is called in: msw listens from beforeAll (an unhandled request is an error), its
 * handlers are reset after each test, and both are closed in afterAll.
 */
export function mswFetchTransport(): MswFetch {
  const msw = setupServer();
  let transport: HttpTransport | undefined;
  beforeAll(() => {
    msw.listen({ onUnhandledRequest: 'error' });
    transport = createHttpTransport({ fetch: (input, init) => globalThis.fetch(input, init) });
  });
  afterEach(() => msw.resetHandlers());
  afterAll(async () => {
    await transport?.close();
    msw.close();
  });
  const made = (): HttpTransport => {
    if (!transport) throw new Error('mswFetchTransport: used before beforeAll ran');
    return transport;
  };
  return {
    msw,
    get transport() {
      return made();
    },
    attempt: () => ({ signal: new AbortController().signal, deadlines: { idleMs: 5000 }, transport: made() }),
  };
}
