import { once } from 'node:events';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  type MockProvider,
  type MockServer,
  type MockSocket,
  startMockServer,
} from '../../src/testing/index.js';

let server: MockServer | undefined;
const clients: WebSocket[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.terminate();
  await server?.close();
  server = undefined;
});

interface Seen {
  upgrades: Request[];
  sockets: MockSocket[];
  frames: Array<string | Uint8Array>;
  closes: Array<[number, string]>;
}

function provider(
  decide?: (request: Request) => ReturnType<NonNullable<MockProvider['upgrade']>>,
): MockProvider & Seen {
  const seen: Seen = { upgrades: [], sockets: [], frames: [], closes: [] };
  return {
    ...seen,
    requests: [],
    handle: async (request) => new Response(`http ${new URL(request.url).pathname}`),
    upgrade(request) {
      seen.upgrades.push(request);
      return (
        decide?.(request) ?? {
          accept(socket) {
            seen.sockets.push(socket);
            socket.onMessage((data) => seen.frames.push(data));
            socket.onClose((code, reason) => seen.closes.push([code, reason]));
          },
        }
      );
    },
  };
}

function wsUrl(path: string): string {
  return `${server!.url.replace(/^http/, 'ws')}${path}`;
}

async function openClient(
  path: string,
  init: { headers?: Record<string, string>; protocols?: string[] } = {},
) {
  const client = new WebSocket(wsUrl(path), init.protocols ?? [], { headers: init.headers ?? {} });
  clients.push(client);
  await once(client, 'open');
  return client;
}

function closeOf(client: WebSocket): Promise<[number, string]> {
  return new Promise((resolve) => client.once('close', (code, reason) => resolve([code, reason.toString()])));
}

/** An upgrade request answered without upgrading: status, content-type and body. */
function refusedUpgrade(url: string): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        'sec-websocket-version': '13',
      },
    });
    req.on('upgrade', () => reject(new Error('unexpected upgrade')));
    req.on('response', (res: IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('startMockServer: WebSocket upgrades (ws package)', () => {
  it('gives upgrade() the URL with its query and the handshake headers', async () => {
    const mock = provider();
    server = await startMockServer({ provider: mock });
    await openClient('/v1/listen?encoding=linear16&sample_rate=16000', {
      headers: { authorization: 'Token abc' },
      protocols: ['token', 'k1'],
    });
    expect(mock.upgrades).toHaveLength(1);
    const request = mock.upgrades[0]!;
    expect(request.method).toBe('GET');
    expect(request.url).toBe(`${server.url}/v1/listen?encoding=linear16&sample_rate=16000`);
    expect(request.headers.get('authorization')).toBe('Token abc');
    expect(request.headers.get('sec-websocket-protocol')).toBe('token,k1');
    expect(request.headers.get('upgrade')).toBe('websocket');
  });

  it('text frames arrive as strings and binary frames as Uint8Array, both ways', async () => {
    const mock = provider();
    server = await startMockServer({ provider: mock });
    const client = await openClient('/s');
    const received: Array<[string, boolean]> = [];
    client.on('message', (data, isBinary) =>
      received.push([Buffer.from(data as Buffer).toString('hex'), isBinary]),
    );
    client.send('héllo');
    client.send(new Uint8Array([0, 1, 254, 255]));
    client.send('{"type":"Finalize"}');
    await expect.poll(() => mock.frames.length).toBe(3);
    expect(mock.frames[0]).toBe('héllo');
    expect(mock.frames[1]).toBeInstanceOf(Uint8Array);
    expect(Array.from(mock.frames[1] as Uint8Array)).toEqual([0, 1, 254, 255]);
    expect(mock.frames[2]).toBe('{"type":"Finalize"}');
    const socket = mock.sockets[0]!;
    socket.send('ok');
    socket.send(new Uint8Array([9, 10]));
    await expect.poll(() => received.length).toBe(2);
    expect(received).toEqual([
      [Buffer.from('ok').toString('hex'), false],
      ['090a', true],
    ]);
  });

  it('close(code, reason) sends a close frame; onClose sees the client close code and reason', async () => {
    const mock = provider();
    server = await startMockServer({ provider: mock });
    const first = await openClient('/a');
    const closed = closeOf(first);
    mock.sockets[0]!.close(1011, 'NET-0001');
    expect(await closed).toEqual([1011, 'NET-0001']);
    await expect.poll(() => mock.closes.length).toBe(1);
    expect(mock.closes[0]).toEqual([1011, 'NET-0001']);
    const second = await openClient('/b');
    second.close(4001, 'bye');
    await expect.poll(() => mock.closes.length).toBe(2);
    expect(mock.closes[1]).toEqual([4001, 'bye']);
    mock.sockets[1]!.send('ignored after close');
  });

  it('terminate() drops the connection: the client sees 1006', async () => {
    const mock = provider();
    server = await startMockServer({ provider: mock });
    const client = await openClient('/t');
    const closed = closeOf(client);
    mock.sockets[0]!.terminate();
    expect((await closed)[0]).toBe(1006);
  });

  it('a reject answers that HTTP status and body, and closes', async () => {
    const mock = provider(() => ({ reject: { status: 401, body: '{"err_code":"INVALID_AUTH"}' } }));
    server = await startMockServer({ provider: mock });
    expect(await refusedUpgrade(`${server.url}/v1/listen?x=1`)).toEqual({
      status: 401,
      type: 'application/json',
      body: '{"err_code":"INVALID_AUTH"}',
    });
    const plain = provider(() => ({ reject: { status: 429 } }));
    await server.close();
    server = await startMockServer({ provider: plain });
    expect(await refusedUpgrade(`${server.url}/`)).toEqual({
      status: 429,
      type: 'text/plain; charset=utf-8',
      body: '',
    });
  });

  it('a provider without upgrade() answers 404; one whose upgrade() throws answers 500', async () => {
    server = await startMockServer({ provider: { requests: [], handle: async () => new Response('x') } });
    expect((await refusedUpgrade(`${server.url}/`)).status).toBe(404);
    await server.close();
    server = await startMockServer({
      provider: {
        requests: [],
        handle: async () => new Response('x'),
        upgrade: () => {
          throw new Error('boom');
        },
      },
    });
    expect(await refusedUpgrade(`${server.url}/`)).toEqual({
      status: 500,
      type: 'text/plain; charset=utf-8',
      body: 'boom',
    });
  });

  it('still serves plain HTTP requests beside upgrades', async () => {
    const mock = provider();
    server = await startMockServer({ provider: mock });
    await openClient('/ws');
    const response = await fetch(`${server.url}/v1/speak`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('http /v1/speak');
  });

  it('close() terminates open sessions (the client sees 1006) and resolves', async () => {
    const mock = provider();
    server = await startMockServer({ provider: mock });
    const a = await openClient('/a');
    const b = await openClient('/b');
    const closes = Promise.all([closeOf(a), closeOf(b)]);
    await server.close();
    server = undefined;
    expect((await closes).map(([code]) => code)).toEqual([1006, 1006]);
  });
});
