import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { wavHeader } from '../../../src/audio/wav-writer.js';
import {
  type CartesiaMockOptions,
  cartesiaHandlers,
  createCartesiaMock,
  mockCartesiaAudio,
  mockWordTimestamps,
} from '../../../src/testing/cartesia/index.js';
import { type MockServer, startMockServer } from '../../../src/testing/mock-server.js';
import { sseData } from '../helpers.js';

const key = 'sk_car_mock_0123456789';
let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(options: CartesiaMockOptions = {}) {
  const mock = createCartesiaMock({ apiKey: key, ...options });
  server = await startMockServer({ provider: mock });
  return { mock, url: server.url };
}

const body = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    model_id: 'sonic-3',
    transcript: 'Hi there.',
    voice: { mode: 'id', id: 'v' },
    output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 16000 },
    ...extra,
  });

describe('Cartesia mock over HTTP (PROTOCOLS.md 1.1, 1.3, 1.4, 7.1)', () => {
  it('accepts X-API-Key or Authorization: Bearer; refuses a missing or wrong key with 401', async () => {
    const { url } = await serve();
    const post = (headers: Record<string, string>) =>
      fetch(`${url}/tts/bytes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: body(),
      });
    expect((await post({ 'X-API-Key': key })).status).toBe(200);
    expect((await post({ Authorization: `Bearer ${key}` })).status).toBe(200);
    const missing = await post({});
    expect([missing.status, missing.headers.get('content-type'), await missing.text()]).toEqual([
      401,
      'text/plain; charset=utf-8',
      'Unauthorized: No API key provided',
    ]);
    const wrong = await post({ 'X-API-Key': 'nope', 'Cartesia-Version': '2026-03-01' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({
      error_code: null,
      title: 'Unauthorized',
      message: 'Invalid API key',
      request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  it('/tts/bytes: raw samples, or a WAV stream (placeholder sizes); mp3 and unknown paths are refused', async () => {
    const { url } = await serve();
    const headers = { 'content-type': 'application/json', 'x-api-key': key };
    const raw = await fetch(`${url}/tts/bytes`, { method: 'POST', headers, body: body() });
    expect(raw.headers.get('content-type')).toBe('application/octet-stream');
    const format = { encoding: 'pcm_s16le', sampleRate: 16000 } as const;
    expect(new Uint8Array(await raw.arrayBuffer())).toEqual(mockCartesiaAudio('Hi there.', format));
    const wav = await fetch(`${url}/tts/bytes`, {
      method: 'POST',
      headers,
      body: body({ output_format: { container: 'wav', encoding: 'pcm_alaw', sample_rate: 8000 } }),
    });
    const alaw = { encoding: 'alaw', sampleRate: 8000 } as const;
    const bytes = new Uint8Array(await wav.arrayBuffer());
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    expect(bytes.subarray(0, 44)).toEqual(wavHeader(alaw));
    expect(bytes.subarray(44)).toEqual(mockCartesiaAudio('Hi there.', alaw));
    const mp3 = await fetch(`${url}/tts/bytes`, {
      method: 'POST',
      headers,
      body: body({ output_format: { container: 'mp3', sample_rate: 44100, bit_rate: 128000 } }),
    });
    expect([mp3.status, await mp3.text()]).toEqual([
      400,
      'Bad Request: mp3 is not served by the mock server: use raw or wav',
    ]);
    const nowhere = await fetch(`${url}/voices`, { method: 'POST', headers, body: '{}' });
    expect(nowhere.status).toBe(404);
  });

  it('/tts/sse: data-only chunk frames, timestamps after the audio that covers them, done last', async () => {
    const { url, mock } = await serve({ script: { chunkBytes: 4000 } });
    const response = await fetch(`${url}/tts/sse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: body({ add_timestamps: true, context_id: 'ctx-7' }),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const text = await response.text();
    expect(text.split('\n').filter((line) => line !== '' && !line.startsWith('data: '))).toEqual([]);
    const events = sseData(text).map((data) => JSON.parse(data) as Record<string, unknown>);
    // 540 ms of 16 kHz s16le = 17280 bytes: 5 chunks of <= 4000 bytes (125 ms each).
    // 'Hi' ends at 120 ms (within the first chunk), 'there.' at 540 ms (the end of the last).
    expect(events.map((e) => e.type)).toEqual([
      'chunk',
      'timestamps',
      'chunk',
      'chunk',
      'chunk',
      'chunk',
      'timestamps',
      'done',
    ]);
    expect(events.map((e) => e.context_id)).toEqual(Array(8).fill('ctx-7'));
    expect(events[1]!.word_timestamps).toEqual({ words: ['Hi'], start: [0], end: [0.12] });
    expect(events[6]!.word_timestamps).toEqual({ words: ['there.'], start: [0.18], end: [0.54] });
    expect(events[7]).toEqual({ type: 'done', done: true, status_code: 200, context_id: 'ctx-7' });
    expect(mockWordTimestamps('Hi there.', 0, 9)).toEqual({
      words: ['Hi', 'there.'],
      start: [0, 0.18],
      end: [0.12, 0.54],
    });
    expect(mock.calls('sse')).toBe(1);
    const wav = await fetch(`${url}/tts/sse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: body({ output_format: { container: 'wav', encoding: 'pcm_s16le', sample_rate: 16000 } }),
    });
    expect([wav.status, await wav.text()]).toEqual([
      400,
      'Bad Request: output_format.container must be "raw" on this endpoint',
    ]);
  });

  it('cartesiaHandlers serves the three HTTP endpoints and both WebSockets under the base URL', () => {
    const handlers = cartesiaHandlers({ baseUrl: 'https://api.cartesia.ai/' });
    expect(handlers).toHaveLength(5);
  });
});

/** A `ws` client on the mock with the key in the query; collects every server message. */
function client(url: string) {
  const ws = new WebSocket(url);
  const received: Array<Record<string, unknown> | string> = [];
  const listeners: Array<() => void> = [];
  ws.on('message', (data, binary) => {
    const text = binary ? '<binary>' : data.toString();
    try {
      received.push(JSON.parse(text) as Record<string, unknown>);
    } catch {
      received.push(text);
    }
    for (const listener of listeners.splice(0)) listener();
  });
  const closed = new Promise<[number, string]>((resolve) =>
    ws.on('close', (code, reason) => resolve([code, reason.toString()])),
  );
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  /** Resolves once a message matches `test`. */
  const waitFor = async (test: (m: Record<string, unknown> | string) => boolean): Promise<void> => {
    while (!received.some(test)) await new Promise<void>((resolve) => listeners.push(resolve));
  };
  return { ws, received, opened, closed, waitFor };
}

/** The HTTP status of a refused upgrade. */
function upgradeStatus(url: string): Promise<number> {
  const ws = new WebSocket(url);
  ws.on('error', () => {});
  return new Promise<number>((resolve) =>
    ws.on('unexpected-response', (req, res) => {
      resolve(res.statusCode ?? 0);
      req.destroy();
    }),
  );
}

const isType = (type: string) => (m: Record<string, unknown> | string) =>
  typeof m === 'object' && m.type === type;
const request = (contextId: string, transcript: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    context_id: contextId,
    model_id: 'sonic-3',
    transcript,
    voice: { mode: 'id', id: 'v' },
    output_format: { container: 'raw', encoding: 'pcm_mulaw', sample_rate: 8000 },
    ...extra,
  });

describe('Cartesia mock /tts/websocket (PROTOCOLS.md 1.5)', () => {
  it('flush -> flush_done with flush_id counting from 1; continue: false -> done; all JSON text frames', async () => {
    const { url } = await serve();
    const c = client(`${url.replace('http', 'ws')}/tts/websocket?api_key=${key}`);
    await c.opened;
    c.ws.send(request('a', 'Hello ', { continue: true, flush: true }));
    c.ws.send(request('a', 'world.', { continue: true, flush: true }));
    c.ws.send(request('a', '', { continue: false }));
    await c.waitFor(isType('done'));
    const shapes = c.received.map((m) => (typeof m === 'string' ? m : [m.type, m.flush_id ?? null]));
    expect(shapes.filter((s) => s[0] !== 'chunk')).toEqual([
      ['flush_done', 1],
      ['flush_done', 2],
      ['done', null],
    ]);
    const audio = c.received
      .filter((m): m is Record<string, unknown> => typeof m === 'object' && m.type === 'chunk')
      .map((m) => Buffer.from(m.data as string, 'base64'));
    expect(new Uint8Array(Buffer.concat(audio))).toEqual(
      mockCartesiaAudio('Hello world.', { encoding: 'mulaw', sampleRate: 8000 }),
    );
    c.ws.close();
  });

  it('cancel stops a context (no more audio, no done); a bad request gets a 400 error with its context_id', async () => {
    const { url, mock } = await serve({ script: { chunkBytes: 100, chunkGapMs: 5 } });
    const c = client(`${url.replace('http', 'ws')}/tts/websocket?api_key=${key}`);
    await c.opened;
    c.ws.send(request('long', 'A long sentence to speak.', { continue: false }));
    await c.waitFor(isType('chunk'));
    c.ws.send(JSON.stringify({ context_id: 'long', cancel: true }));
    c.ws.send(
      request('bad', 'x', { output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 12345 } }),
    );
    await c.waitFor(isType('error'));
    const error = c.received.find(isType('error')) as Record<string, unknown>;
    expect(error).toEqual({
      type: 'error',
      done: true,
      status_code: 400,
      error_code: 'internal_error',
      title: 'Bad Request',
      message: 'output_format.sample_rate 12345 is not supported',
      request_id: expect.any(String),
      context_id: 'bad',
    });
    c.ws.close();
    await c.closed;
    // 25 characters: 1500 ms = 12000 mu-law bytes = 120 chunks; the cancel cut it short, and no done.
    expect(c.received.filter(isType('chunk')).length).toBeLessThan(120);
    expect(c.received.some(isType('done'))).toBe(false);
    expect(await mock.sockets[0]!.ended).toBe('aborted');
  });

  it('lateChunks: before the second context, audio of the first one arrives (for C15 tests)', async () => {
    const { url } = await serve({ script: { lateChunks: 2 } });
    const c = client(`${url.replace('http', 'ws')}/tts/websocket?api_key=${key}`);
    await c.opened;
    c.ws.send(request('one', 'Hi.'));
    await c.waitFor(isType('done'));
    c.ws.send(request('two', 'Bye.'));
    await c.waitFor((m) => isType('done')(m) && (m as Record<string, unknown>).context_id === 'two');
    const order = c.received.map((m) => (typeof m === 'string' ? m : `${m.type}:${m.context_id}`));
    const firstDone = order.indexOf('done:one');
    expect(order.slice(firstDone + 1, firstDone + 3)).toEqual(['chunk:one', 'chunk:one']);
    expect(order.at(-1)).toBe('done:two');
    c.ws.close();
  });

  it('closeSockets closes open sessions from the server side', async () => {
    const { url, mock } = await serve();
    const c = client(`${url.replace('http', 'ws')}/tts/websocket?api_key=${key}`);
    await c.opened;
    mock.closeSockets(1001, 'idle');
    expect(await c.closed).toEqual([1001, 'idle']);
    expect(await mock.sockets[0]!.ended).toBe('completed');
    expect(mock.sockets[0]!.closeCode).toBe(1001);
  });

  it('a refused key on the upgrade is HTTP 401', async () => {
    const { url } = await serve();
    expect(await upgradeStatus(`${url.replace('http', 'ws')}/tts/websocket?api_key=wrong`)).toBe(401);
  });
});

describe('Cartesia mock /stt/websocket (PROTOCOLS.md 1.6)', () => {
  const sttUrl = (url: string, query = 'model=ink-whisper&encoding=pcm_s16le&sample_rate=16000') =>
    `${url.replace('http', 'ws')}/stt/websocket?${query}&api_key=${key}`;

  it("two finalized segments: the second segment's partials and final start with a space (text is the delta since the last final)", async () => {
    const { url } = await serve({
      transcript: ({ segment }) => (segment === 1 ? 'Hello there.' : 'Bye now.'),
    });
    const c = client(sttUrl(url));
    await c.opened;
    c.ws.send(new Uint8Array(16000));
    c.ws.send('finalize');
    await c.waitFor(isType('flush_done'));
    c.ws.send(new Uint8Array(8000));
    c.ws.send('done');
    expect(await c.closed).toEqual([1000, '']);
    const messages = c.received as Array<Record<string, unknown>>;
    expect(messages.map((m) => [m.type, m.text ?? null, m.is_final ?? null])).toEqual([
      ['transcript', 'Hello', false],
      ['transcript', 'Hello there.', true],
      ['flush_done', null, null],
      ['transcript', ' Bye', false],
      ['transcript', ' Bye now.', true],
      ['done', null, null],
    ]);
    expect(messages[4]!.words).toEqual([
      { word: 'Bye', start: 0.5, end: 0.6 },
      { word: 'now.', start: 0.625, end: 0.725 },
    ]);
    expect(messages[4]!.duration).toBe(0.75);
  });

  it('refuses a missing model, an unknown encoding or a bad sample rate with HTTP 400', async () => {
    const { url } = await serve();
    for (const query of [
      'encoding=pcm_s16le&sample_rate=16000',
      'model=ink-2&encoding=opus&sample_rate=16000',
      'model=ink-2&encoding=pcm_s16le&sample_rate=abc',
    ]) {
      expect(await upgradeStatus(sttUrl(url, query))).toBe(400);
    }
  });

  it('an unknown text command gets an error message with status_code 400', async () => {
    const { url } = await serve();
    const c = client(sttUrl(url));
    await c.opened;
    c.ws.send('{"type":"close"}');
    await c.waitFor(isType('error'));
    expect((c.received[0] as Record<string, unknown>).message).toBe(
      'Unknown command "{\\"type\\":\\"close\\"}"',
    );
    c.ws.close();
  });
});
