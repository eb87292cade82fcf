import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { ProviderError } from '../../src/errors/index.js';
import {
  closeCodeOfStatus,
  type MockProvider,
  type MockSocket,
  mockWebSocketHandler,
} from '../../src/testing/index.js';
import { createWebSocketTransport } from '../../src/transport/websocket.js';

const NATIVE = typeof globalThis.WebSocket === 'function';

interface Seen {
  upgrades: Request[];
  frames: Array<string | Uint8Array>;
  closes: Array<[number, string]>;
}

/** Echoes every frame; `/refuse` paths are rejected with 401. */
function echoProvider(): MockProvider & Seen {
  const seen: Seen = { upgrades: [], frames: [], closes: [] };
  return {
    ...seen,
    requests: [],
    handle: async () => new Response('x'),
    upgrade(request) {
      seen.upgrades.push(request);
      if (new URL(request.url).pathname.endsWith('/refuse'))
        return { reject: { status: 401, body: 'invalid api key' } };
      return {
        accept(socket: MockSocket) {
          socket.onMessage((data) => {
            seen.frames.push(data);
            if (data === 'close-1011') socket.close(1011, 'internal');
            else socket.send(data);
          });
          socket.onClose((code, reason) => seen.closes.push([code, reason]));
        },
      };
    },
  };
}

/** The msw adapter's behaviour, through voxroute's transport on the global WebSocket. */
function mswSuite(): void {
  const mock = echoProvider();
  const msw = setupServer(
    mockWebSocketHandler('wss://stt.mock.test/v1/listen', mock),
    mockWebSocketHandler('wss://stt.mock.test/v1/refuse', mock),
  );
  beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => msw.close());
  const transport = createWebSocketTransport({ useGlobalWebSocket: true });

  it('round-trips text and binary frames; the upgrade Request has the URL with its query', async () => {
    const conn = await transport.connect({
      provider: 'p',
      url: 'wss://stt.mock.test/v1/listen?model=nova&token=abc',
    });
    conn.send('hello');
    conn.send(new Uint8Array([1, 2, 255]));
    const iterator = conn.messages()[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ type: 'text', data: 'hello' });
    expect((await iterator.next()).value).toEqual({ type: 'binary', data: new Uint8Array([1, 2, 255]) });
    expect(mock.upgrades.at(-1)?.url).toBe('https://stt.mock.test/v1/listen?model=nova&token=abc');
    expect(mock.frames.slice(-2)).toEqual(['hello', new Uint8Array([1, 2, 255])]);
    conn.close();
    expect((await conn.closed).code).toBe(1000);
  });

  it('a mock close 1011 reaches the client as ProviderError status 1011, retryable', async () => {
    const conn = await transport.connect({ provider: 'p', url: 'wss://stt.mock.test/v1/listen' });
    conn.send('close-1011');
    const iterator = conn.messages()[Symbol.asyncIterator]();
    const error = await iterator.next().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).status).toBe(1011);
    expect((error as ProviderError).retryable).toBe(true);
  });

  it('a reject (msw cannot refuse a handshake) closes with 1008 "HTTP 401 <body>": not retryable', async () => {
    // msw closes before the client sees `open`, so connect() itself rejects.
    const error = await transport.connect({ provider: 'p', url: 'wss://stt.mock.test/v1/refuse' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).status).toBe(1008);
    expect((error as ProviderError).retryable).toBe(false);
    expect((error as ProviderError).message).toContain('HTTP 401 invalid api key');
  });
}

describe.skipIf(!NATIVE)(
  'mockWebSocketHandler on the native global WebSocket (skipped on Node 20: no global WebSocket)',
  () => {
    mswSuite();
  },
);

describe.skipIf(NATIVE)(
  "mockWebSocketHandler with the ws package's WebSocket as globalThis.WebSocket (Node 20 has none)",
  () => {
    const had = Object.getOwnPropertyDescriptor(globalThis, 'WebSocket');
    // Installed at collection time, before msw's interceptor (set up in mswSuite's beforeAll) wraps it.
    Object.defineProperty(globalThis, 'WebSocket', {
      value: WsWebSocket,
      configurable: true,
      writable: true,
    });
    afterAll(() => {
      if (had) Object.defineProperty(globalThis, 'WebSocket', had);
      else delete (globalThis as { WebSocket?: unknown }).WebSocket;
    });
    mswSuite();
  },
);

describe('closeCodeOfStatus', () => {
  it('maps a refused status to the close code the msw adapter uses', () => {
    expect([401, 403, 404, 400, 429, 500, 503].map(closeCodeOfStatus)).toEqual([
      1008, 1008, 1008, 1008, 1013, 1011, 1011,
    ]);
  });
});
