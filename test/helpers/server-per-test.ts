import { afterEach } from 'vitest';
import { createHttpTransport } from '../../src/transport/index.js';
import type { HttpTransport } from '../../src/transport/types.js';
import { type LoopbackServer, startLoopbackServer } from './loopback.js';

/** What {@link serverPerTest} gives a test file. */
export interface ServerPerTest {
  /** Starts the test's loopback server with `handler` and a fresh HTTP transport (undici); returns the server. */
  serve(handler: Parameters<typeof startLoopbackServer>[0]): Promise<LoopbackServer>;
  /** The server `serve` started in this test; throws before it. */
  readonly server: LoopbackServer;
  /** The transport `serve` made in this test; throws before it. */
  readonly transport: HttpTransport;
  /** Closes the transport, then the server (what runs after each test); `serve` may start new ones. */
  close(): Promise<void>;
}

/**
 * For a test file or describe block: one loopback server ({@link startLoopbackServer}) and one
 * HTTP transport per test, both closed by an afterEach registered where this is called.
 */
export function serverPerTest(): ServerPerTest {
  let server: LoopbackServer | undefined;
  let transport: HttpTransport | undefined;
  const close = async () => {
    await transport?.close();
    await server?.close();
    server = undefined;
    transport = undefined;
  };
  afterEach(close);
  return {
    async serve(handler) {
      server = await startLoopbackServer(handler);
      transport = createHttpTransport();
      return server;
    },
    get server() {
      if (!server) throw new Error('serverPerTest: no server started in this test');
      return server;
    },
    get transport() {
      if (!transport) throw new Error('serverPerTest: no transport made in this test');
      return transport;
    },
    close,
  };
}
