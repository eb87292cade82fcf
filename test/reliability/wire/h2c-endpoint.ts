/**
 * An h2c endpoint (HTTP/2 with prior knowledge, node:http2 on 127.0.0.1) for the SageMaker
 * bidirectional stream tests: the test's `answer` speaks each stream itself. Stream and session
 * errors are ignored (the tests reset streams on purpose); every endpoint is closed after the
 * test.
 */
import { once } from 'node:events';
import { createServer, type Http2Server, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

const servers: Http2Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise<void>((resolve) => s.close(() => resolve()));
});

/** Starts an endpoint answering every stream with `answer`; resolves with its `http://` URL. */
export async function h2cEndpoint(answer: (stream: ServerHttp2Stream) => void): Promise<string> {
  const server = createServer();
  servers.push(server);
  server.on('stream', (stream: ServerHttp2Stream) => {
    stream.on('error', () => {});
    answer(stream);
  });
  server.on('session', (session) => session.on('error', () => {}));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
