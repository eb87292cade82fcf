/**
 * A provider's `headers` holding a header the HTTP client refuses or sets itself
 * (`Content-Length`, `Expect`, the hop-by-hop headers, `Host`, an HTTP/2 pseudo-header, a name
 * that is no HTTP token) used to pass config validation: every call then failed, either as a
 * non-retryable ProviderError charged to the provider (which went down) or as a ConfigError at
 * `providers.a` blaming a line break. Each is now an issue at `providers.<name>.headers.<header>`
 * saying why, thrown by parseConfig/createRouter before any provider is contacted. The server
 * here speaks HTTP on its own and counts the requests it receives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouter, parseConfig } from '../../src/index.js';
import { configIssuesOf } from '../helpers/config-issues.js';
import { collect } from '../helpers/index.js';
import { type LoopbackServer, startLoopbackServer } from '../helpers/loopback.js';

const HOP_BY_HOP =
  'is a hop-by-hop header (RFC 9110 7.6.1): the HTTP client manages the connection itself, so it cannot be set here';
const CONTENT_LENGTH = 'is set by the HTTP client from each request body, so it cannot be set here';
const HOST = 'is set by the HTTP client from baseUrl, so it cannot be set here: put the host in baseUrl';
const EXPECT = 'is not supported by the HTTP client (it sends each request body at once)';
const WEBSOCKET = 'is set by the WebSocket client on each handshake, so it cannot be set here';
const PSEUDO =
  'is an HTTP/2 pseudo-header: the HTTP client sets it from the request, so it cannot be set here';
const INVALID_NAME =
  "must be an HTTP header name: letters, digits and ! # $ % & ' * + - . ^ _ ` | ~ only (no space, colon or other character)";
const CONTROL_CHARACTER =
  'contains a line break or control character (check the file or environment value for a trailing newline)';

let server: LoopbackServer;
beforeAll(async () => {
  server = await startLoopbackServer((_request, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(
      'data: {"choices":[{"index":0,"delta":{"content":"ok."},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
    );
  });
});
afterAll(() => server.close());

/** A config with one openai-compatible provider `a` (the kind parseConfig's fast path reads) and `headers`. */
function config(headers: Record<string, unknown>) {
  return {
    providers: {
      a: {
        kind: 'openai-compatible',
        baseUrl: `${server.origin}/v1`,
        headers,
        chat: { models: { fast: 'm' } },
      },
    },
    routes: { chat: { providers: ['a'] } },
  };
}

/** The issues of the ConfigError that `run` throws, as `path: message`. */
const issuesOf = configIssuesOf;

describe('headers the HTTP client refuses or sets are ConfigErrors at their own path', () => {
  it.each([
    ['Content-Length', '5', CONTENT_LENGTH],
    ['Expect', '100-continue', EXPECT],
    ['Transfer-Encoding', 'chunked', HOP_BY_HOP],
    ['Upgrade', 'h2c', HOP_BY_HOP],
    ['Keep-Alive', 'timeout=5', HOP_BY_HOP],
    ['Connection', 'close', HOP_BY_HOP],
    ['Proxy-Connection', 'keep-alive', HOP_BY_HOP],
    ['TE', 'trailers', HOP_BY_HOP],
    ['Host', 'example.com', HOST],
    ['Sec-WebSocket-Key', 'dGhlIHNhbXBsZSBub25jZQ==', WEBSOCKET],
    [':authority', 'example.com', PSEUDO],
    [':path', '/v1', PSEUDO],
  ])('%s: createRouter() throws, naming the header, and no request is sent', async (name, value, why) => {
    const before = server.requests.length;
    expect(issuesOf(() => createRouter(config({ [name]: value }) as never))).toEqual([
      `providers.a.headers.${name}: ${why}`,
    ]);
    expect(server.requests.length - before).toBe(0);
  });

  it('names are compared in any letter case; every bad header of a config is listed at once', () => {
    expect(
      issuesOf(() =>
        parseConfig(
          config({
            'content-length': '5',
            'X-Request-Source': 'app',
            EXPECT: '100-continue',
            'tRaNsFeR-eNcOdInG': 'chunked',
            HOST: 'example.com',
            ':Method': 'GET',
          }) as never,
        ),
      ),
    ).toEqual([
      `providers.a.headers.content-length: ${CONTENT_LENGTH}`,
      `providers.a.headers.EXPECT: ${EXPECT}`,
      `providers.a.headers.tRaNsFeR-eNcOdInG: ${HOP_BY_HOP}`,
      `providers.a.headers.HOST: ${HOST}`,
      `providers.a.headers.:Method: ${PSEUDO}`,
    ]);
  });

  it('a name with a character no HTTP token has: shown as [redacted] (it may be a pasted credential)', () => {
    for (const name of ['X Custom', 'X-Custom:', 'X-\u00e9t\u00e9', 'X-A\r\nX-B', '']) {
      expect(issuesOf(() => parseConfig(config({ [name]: 'v' }) as never))).toEqual([
        `providers.a.headers.[redacted]: ${INVALID_NAME}`,
      ]);
    }
  });

  it('a value with CR, LF or NUL: an issue at the header, before any request', () => {
    const before = server.requests.length;
    for (const value of ['a\rb', 'a\nb', 'a\u0000b', 'trailing\r\n']) {
      expect(issuesOf(() => createRouter(config({ 'X-Trace': value }) as never))).toEqual([
        `providers.a.headers.X-Trace: ${CONTROL_CHARACTER}`,
      ]);
    }
    expect(server.requests.length - before).toBe(0);
  });

  it('the same checks for the other kinds that take headers (anthropic, cartesia)', () => {
    const anthropic = {
      providers: {
        a: {
          kind: 'anthropic',
          baseUrl: server.origin,
          apiKey: 'test-only-value',
          headers: { 'Keep-Alive': 'timeout=5', 'Content-Length': '1' },
          chat: { models: { fast: 'm' } },
        },
      },
      routes: { chat: { providers: ['a'] } },
    };
    expect(issuesOf(() => parseConfig(anthropic as never))).toEqual([
      `providers.a.headers.Keep-Alive: ${HOP_BY_HOP}`,
      `providers.a.headers.Content-Length: ${CONTENT_LENGTH}`,
    ]);
    const cartesia = {
      providers: {
        c: {
          kind: 'cartesia',
          baseUrl: server.origin,
          apiKey: 'test-only-value',
          headers: { Upgrade: 'websocket', 'sec-websocket-protocol': 'x' },
          tts: { voices: { agent: 'v' } },
        },
      },
      routes: { tts: { providers: ['c'] } },
    };
    expect(issuesOf(() => parseConfig(cartesia as never))).toEqual([
      `providers.c.headers.Upgrade: ${HOP_BY_HOP}`,
      `providers.c.headers.sec-websocket-protocol: ${WEBSOCKET}`,
    ]);
  });

  it('ordinary extra headers still reach the provider (the server above counts for real)', async () => {
    const before = server.requests.length;
    const router = createRouter(config({ 'X-Request-Source': 'app', 'Accept-Language': 'en' }) as never);
    try {
      const events = await collect(
        router.chat({ messages: [{ role: 'user', content: 'hi' }], model: 'fast' }),
      );
      expect(events.map((e) => e.type)).toEqual(['text-delta', 'finish']);
      expect(server.requests.length - before).toBe(1);
      const received = server.requests.at(-1)!.headers;
      expect([received['x-request-source'], received['accept-language']]).toEqual(['app', 'en']);
    } finally {
      await router.close();
    }
  });
});
