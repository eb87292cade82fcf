import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  createElevenLabsMock,
  createManualDelay,
  type ElevenLabsMock,
  type ElevenLabsMockOptions,
  type MockServer,
  mockElevenLabsAlignment,
  mockElevenLabsAudio,
  startMockServer,
} from '../../../src/testing/index.js';
import type { AudioFormat } from '../../../src/types/audio.js';

const KEY = 'xi-mock-key-123';
const PCM24: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24000 };

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(options: ElevenLabsMockOptions = {}): Promise<{ mock: ElevenLabsMock; url: string }> {
  const mock = createElevenLabsMock({ apiKey: KEY, ...options });
  server = await startMockServer({ provider: mock });
  return { mock, url: server.url };
}

function post(url: string, body: unknown, headers: Record<string, string> = { 'xi-api-key': KEY }) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** A raw `ws` client session: every server message parsed, and how it closed. */
function session(url: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(url, { headers });
  const received: unknown[] = [];
  socket.on('message', (data, binary) => received.push(binary ? data : safeJson(String(data))));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('unexpected-response', (_req, res) =>
      reject(Object.assign(new Error('refused'), { status: res.statusCode })),
    );
    socket.once('error', reject);
  });
  const send = (message: unknown) =>
    socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  return { socket, received, closed, opened, send };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const wsUrl = (base: string, query = 'output_format=pcm_24000') =>
  `${base.replace('http', 'ws')}/v1/text-to-speech/voice-1/stream-input?${query}`;

describe('ElevenLabs mock: HTTP stream', () => {
  it('streams the audio in chunkBytes pieces and records the request', async () => {
    const { mock, url } = await serve({ script: { stream: { chunkBytes: 1000 } } });
    const response = await post(`${url}/v1/text-to-speech/v1/stream?output_format=pcm_24000`, {
      text: 'Hello.',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.equals(Buffer.from(mockElevenLabsAudio('Hello.', PCM24)))).toBe(true);
    const [record] = mock.requests;
    expect(await record!.ended).toBe('completed');
    expect(record).toMatchObject({
      endpoint: 'stream',
      call: 1,
      method: 'POST',
      status: 200,
      body: { text: 'Hello.' },
    });
    expect(record!.chunksSent).toBe(Math.ceil(bytes.byteLength / 1000));
    expect(mock.calls('stream')).toBe(1);
  });

  it('errors: missing key 401, compressed format 422, blank text 422, bad speed 422, unknown path 404', async () => {
    const { url } = await serve();
    const stream = `${url}/v1/text-to-speech/v1/stream`;
    const noKey = await post(`${stream}?output_format=pcm_24000`, { text: 'Hi' }, {});
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toEqual({ detail: { status: 'invalid_api_key', message: 'Invalid API key' } });
    const mp3 = await post(`${stream}?output_format=mp3_44100_128`, { text: 'Hi' });
    expect(mp3.status).toBe(422);
    expect(((await mp3.json()) as { detail: [{ loc: string[] }] }).detail[0].loc).toEqual([
      'query',
      'output_format',
    ]);
    const blank = await post(`${stream}?output_format=pcm_24000`, { text: ' ' });
    expect(await blank.json()).toEqual({
      detail: [{ loc: ['body', 'text'], msg: 'Field required', type: 'missing' }],
    });
    const fast = await post(`${stream}?output_format=pcm_24000`, {
      text: 'Hi',
      voice_settings: { speed: 2 },
    });
    expect(fast.status).toBe(422);
    const other = await post(`${url}/v1/voices`, {});
    expect(other.status).toBe(404);
  });

  it('scripted failure with Retry-After, then success', async () => {
    const { url } = await serve({ script: { stream: { failTimes: 1, failStatus: 429, retryAfter: '2' } } });
    const target = `${url}/v1/text-to-speech/v1/stream?output_format=ulaw_8000`;
    const first = await post(target, { text: 'Hi.' });
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('2');
    expect(await first.json()).toEqual({
      detail: { status: 'too_many_concurrent_requests', message: 'mock failure 1 of 1' },
    });
    const second = await post(target, { text: 'Hi.' });
    const bytes = Buffer.from(await second.arrayBuffer());
    expect(
      bytes.equals(Buffer.from(mockElevenLabsAudio('Hi.', { encoding: 'mulaw', sampleRate: 8000 }))),
    ).toBe(true);
  });
});

describe('ElevenLabs mock: stream-input WebSocket', () => {
  it('generates when the chunk schedule is reached (default 120 characters), then at the end; isFinal; close 1000', async () => {
    const { mock, url } = await serve({ script: { streamInput: { chunkBytes: 1_000_000 } } });
    const client = session(wsUrl(url), { 'xi-api-key': KEY });
    await client.opened;
    const a = `${'a'.repeat(59)} `;
    const b = `${'b'.repeat(69)} `;
    client.send({ text: ' ' });
    client.send({ text: a });
    const socket = await mock.whenSocket(0);
    await socket.whenMessages(2);
    expect(socket.generations).toEqual([]);
    client.send({ text: b });
    client.send({ text: 'tail ' });
    client.send({ text: '' });
    expect(await client.closed).toEqual({ code: 1000, reason: '' });
    expect(socket.generations).toEqual([a + b, 'tail ']);
    const first = client.received[0] as { audio: string; alignment: unknown; normalizedAlignment: unknown };
    const alignment = mockElevenLabsAlignment(a + b, 130 * 60);
    expect(Object.keys(first)).toEqual(['audio', 'normalizedAlignment', 'alignment']);
    expect(first.alignment).toEqual(alignment);
    expect(first.normalizedAlignment).toEqual(alignment);
    const audio = Buffer.from(first.audio, 'base64');
    expect(audio.equals(Buffer.from(mockElevenLabsAudio(a + b, PCM24)))).toBe(true);
    expect(client.received.at(-1)).toEqual({ isFinal: true });
    expect(socket.auth).toBe('header');
    expect(mock.requests[0]).toMatchObject({ endpoint: 'stream-input', method: 'GET', status: 101 });
  });

  it('honours generation_config, try_trigger_generation (>= 50 characters) and flush', async () => {
    const { mock, url } = await serve();
    const client = session(wsUrl(url));
    await client.opened;
    client.send({ text: ' ', xi_api_key: KEY, generation_config: { chunk_length_schedule: [300] } });
    client.send({ text: 'short ', try_trigger_generation: true });
    client.send({ text: `${'x'.repeat(50)} `, try_trigger_generation: true });
    client.send({ text: 'Hi. ', flush: true });
    client.send({ text: '' });
    await client.closed;
    const socket = mock.sockets[0]!;
    expect(socket.generations).toEqual([`short ${'x'.repeat(50)} `, 'Hi. ']);
    expect(socket.auth).toBe('message');
  });

  it('auto_mode=true disables the chunk schedule and buffers: each text message is generated as it comes', async () => {
    const { mock, url } = await serve();
    const client = session(`${wsUrl(url)}&auto_mode=true`, { 'xi-api-key': KEY });
    await client.opened;
    client.send({ text: ' ' });
    client.send({ text: 'Hello there. ' });
    const socket = await mock.whenSocket(0);
    await socket.whenMessages(2);
    // Spoken at once, before the end of input: 13 characters, far below the schedule's 120.
    expect(socket.generations).toEqual(['Hello there. ']);
    client.send({ text: ' ' });
    client.send({ text: 'How are you? ' });
    client.send({ text: '' });
    expect(await client.closed).toEqual({ code: 1000, reason: '' });
    expect(socket.generations).toEqual(['Hello there. ', 'How are you? ']);
    expect(socket.query.auto_mode).toBe('true');
  });

  it('closes an idle session after inactivity_timeout seconds: input_timeout_exceeded, close 1008', async () => {
    const time = createManualDelay();
    const { mock, url } = await serve({ delay: time.delay });
    const client = session(wsUrl(url, 'output_format=pcm_16000&inactivity_timeout=5'), { 'xi-api-key': KEY });
    await client.opened;
    client.send({ text: ' ' });
    const socket = await mock.whenSocket(0);
    await socket.whenMessages(1);
    expect(time.requested).toEqual([5000, 5000]);
    expect(await time.release()).toBe(5000);
    const closed = await client.closed;
    expect(closed.code).toBe(1008);
    expect(closed.reason).toContain('5 seconds');
    expect(client.received).toEqual([
      { message: expect.stringContaining('5 seconds'), error: 'input_timeout_exceeded', code: 1008 },
    ]);
  });

  it('refuses a wrong key, a bad first message and a binary frame with invalid_* errors and close 1008', async () => {
    const { url } = await serve();
    const wrong = session(wsUrl(url));
    await wrong.opened;
    wrong.send({ text: ' ', 'xi-api-key': 'nope' });
    expect((await wrong.closed).code).toBe(1008);
    expect(wrong.received).toEqual([{ message: 'Invalid API key.', error: 'invalid_api_key', code: 1008 }]);

    const badFirst = session(wsUrl(url), { 'xi-api-key': KEY });
    await badFirst.opened;
    badFirst.send({ text: 'Hello ' });
    expect((await badFirst.closed).code).toBe(1008);
    expect(badFirst.received[0]).toMatchObject({ error: 'invalid_input_message', code: 1008 });

    const binary = session(wsUrl(url), { 'xi-api-key': KEY });
    await binary.opened;
    binary.socket.send(Buffer.from([1, 2, 3]));
    expect((await binary.closed).code).toBe(1008);
    expect(binary.received[0]).toMatchObject({ error: 'invalid_input_message' });
  });

  it('refuses the upgrade for a scripted failure (429) and an output format it cannot make (422)', async () => {
    const { mock, url } = await serve({ script: { streamInput: { failTimes: 1, failStatus: 429 } } });
    await expect(session(wsUrl(url), { 'xi-api-key': KEY }).opened).rejects.toMatchObject({ status: 429 });
    await expect(
      session(wsUrl(url, 'output_format=mp3_44100_128'), { 'xi-api-key': KEY }).opened,
    ).rejects.toMatchObject({
      status: 422,
    });
    expect(mock.requests.map((r) => r.status)).toEqual([429, 422]);
  });

  it('scripted faults: reset after K (1006), end without isFinal, error event', async () => {
    const { url } = await serve({
      script: {
        streamInput: [
          { chunkBytes: 1000, resetAfterChunks: 1 },
          { endWithoutDone: true },
          { errorEventAfterChunks: 0, errorEvent: { type: 'quota_exceeded', message: 'out of credits' } },
        ],
      },
    });
    const run = async () => {
      const client = session(wsUrl(url), { 'xi-api-key': KEY });
      await client.opened;
      client.send({ text: ' ' });
      client.send({ text: 'Hello there. ', flush: true });
      client.send({ text: '' });
      return { closed: await client.closed, received: client.received };
    };
    const reset = await run();
    expect(reset.closed.code).toBe(1006);
    expect(reset.received).toHaveLength(1);
    const noFinal = await run();
    expect(noFinal.closed.code).toBe(1000);
    expect(noFinal.received.some((m) => (m as { isFinal?: boolean }).isFinal)).toBe(false);
    const failed = await run();
    expect(failed.closed.code).toBe(1011);
    expect(failed.received).toEqual([{ message: 'out of credits', error: 'quota_exceeded', code: 1011 }]);
  });
});
