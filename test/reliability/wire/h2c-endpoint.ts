/**
 * An h2c endpoint (HTTP/2 with prior knowledge, node:http2 on 127.0.0.1) for the SageMaker
 * bidirectional stream tests: the test's `answer` speaks each stream itself. Stream and session
 * errors are ignored (the tests reset streams on purpose).
 */
import { once } from 'node:events';
import { createServer, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

/**
 * Starts an endpoint answering every stream with `answer`, closed when the calling test finishes
 * (call it inside a test); resolves with its `http://` URL.
 */
export async function h2cEndpoint(answer: (stream: ServerHttp2Stream) => void): Promise<string> {
  const server = createServer();
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  server.on('stream', (stream: ServerHttp2Stream) => {
    stream.on('error', () => {});
    answer(stream);
  });
  server.on('session', (session) => session.on('error', () => {}));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
