/**
 * A response that breaks HTTP/1.1 itself (LF-only line ends, two different Content-Lengths,
 * Transfer-Encoding with Content-Length, a garbage status line, a bad chunk size): on the
 * default undici transport it was a non-retryable generic ProviderError ("Request to provider
 * 'a' failed: ..."), over a fetch a retryable network ProviderError. docs/errors.md: a provider
 * that broke its wire protocol is a retryable ProtocolError, on either transport. The servers
 * are raw TCP (node:net) writing the bytes themselves: no HTTP library would send them.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AllProvidersFailedError, ProtocolError } from '../../src/index.js';
import { drain, router } from './wire/servers.js';

const servers: Array<{ server: Server; sockets: Socket[] }> = [];
afterEach(async () => {
  for (const { server, sockets } of servers.splice(0)) {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A TCP server that answers each connection's first bytes with `raw` and ends it. */
async function rawServer(raw: string): Promise<string> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => {});
    socket.once('data', () => socket.end(raw));
  });
  servers.push({ server, sockets });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const BODY = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'Hi' } }] })}\n\ndata: [DONE]\n\n`;
/** undici's message for its HTTPParserError (the same over a fetch: Node's fetch is undici). */
const PARSE = 'Response does not match the HTTP/1.1 protocol';
/** The message over a fetch, whichever undici parses for it. */
const FETCH_MESSAGE =
  /^Provider 'a' broke the HTTP\/1\.1 protocol: (?:(?:HPE_[A-Z_]+ \()?Response does not match the HTTP\/1\.1 protocol \([^)]+\)\)?|UND_ERR_RES_CONTENT_LENGTH_MISMATCH \(Response body length does not match content-length header\))$/;
/** Each answer, and what the error message says after "Provider 'a' broke the HTTP/1.1 protocol: ". */
const answers: Array<[string, string, string]> = [
  [
    'LF-only line ends',
    `HTTP/1.1 200 OK\ncontent-type: text/event-stream\ncontent-length: ${BODY.length}\n\n${BODY}`,
    `${PARSE} (Missing expected CR after response line)`,
  ],
  [
    'two different Content-Lengths',
    `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: ${BODY.length}\r\ncontent-length: 5\r\n\r\n${BODY}`,
    'UND_ERR_RES_CONTENT_LENGTH_MISMATCH (Response body length does not match content-length header)',
  ],
  [
    'Transfer-Encoding with Content-Length',
    `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\ncontent-length: 3\r\n\r\n${BODY.length.toString(16)}\r\n${BODY}\r\n0\r\n\r\n`,
    `${PARSE} (Content-Length can't be present with Transfer-Encoding)`,
  ],
  ['a garbage status line', 'HTTX/9 ??\r\n\r\n', `${PARSE} (Expected HTTP/, RTSP/ or ICE/)`],
  [
    'a bad chunk size',
    `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n${BODY}\r\n0\r\n\r\n`,
    `${PARSE} (Invalid character in chunk size)`,
  ],
];

for (const transport of ['undici', 'fetch'] as const)
  describe(`a malformed HTTP/1.1 response is a retryable ProtocolError (${transport} transport)`, () => {
    for (const [name, raw, detail] of answers)
      it(name, async () => {
        const url = await rawServer(raw);
        const r = router(
          {
            providers: {
              a: {
                kind: 'openai-compatible',
                baseUrl: `${url}/v1`,
                apiKey: 'test-key-a',
                chat: { models: { fast: 'm' } },
              },
            },
            routes: { chat: { providers: ['a'], strategy: 'priority' } },
          },
          transport === 'fetch' ? { fetch: globalThis.fetch } : {},
        );
        const { error, items } = await drain(
          r.chat({ model: 'fast', messages: [{ role: 'user', content: 'x' }] }),
        );
        expect(items).toEqual([]);
        expect(error).toBeInstanceOf(AllProvidersFailedError);
        expect((error as AllProvidersFailedError).retryable).toBe(true);
        const cause = (error as AllProvidersFailedError).attempts[0]!.error as ProtocolError;
        expect(cause).toBeInstanceOf(ProtocolError);
        expect([cause.retryable, cause.partialOutput, cause.provider]).toEqual([true, false, 'a']);
        // Over a fetch the parser is the one of the fetch in use (Node's own bundled undici
        // words some of these differently, with an HPE_ code first): same class, same prefix.
        if (transport === 'undici')
          expect(cause.message).toBe(`Provider 'a' broke the HTTP/1.1 protocol: ${detail}`);
        else expect(cause.message).toMatch(FETCH_MESSAGE);
      });
  });
