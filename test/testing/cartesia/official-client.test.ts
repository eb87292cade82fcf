import { createRequire } from 'node:module';
import type CartesiaClient from '@cartesia/cartesia-js';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCartesiaMock, mockCartesiaAudio } from '../../../src/testing/cartesia/index.js';
import { type MockServer, startMockServer } from '../../../src/testing/mock-server.js';

const apiKey = 'sk_car_official_0123456789';
let server: MockServer;
let tlsServer: MockServer;
let tlsAgent: Agent;
let tlsClient: CartesiaClient;
const mock = createCartesiaMock({ apiKey, transcript: 'How are you' });
let client: CartesiaClient;

// The SDK's WebSocket code loads the `ws` package with `require`, which exists only in its
// CommonJS build (in its ESM build it falls back to a global WebSocket, which Node 20 lacks):
// load that build, as a CommonJS application in Node would.
const { Cartesia } = createRequire(import.meta.url)('@cartesia/cartesia-js') as {
  Cartesia: typeof CartesiaClient;
};

beforeAll(async () => {
  server = await startMockServer({ provider: mock });
  client = new Cartesia({ apiKey, baseURL: server.url, maxRetries: 0 });
  // The same mock over TLS: its self-signed certificate is the CA given to the SDK, for
  // WebSocket through the options it passes to ws, for HTTP through an undici dispatcher.
  tlsServer = await startMockServer({ provider: mock, tls: true });
  tlsAgent = new Agent({ connect: { ca: tlsServer.ca } });
  tlsClient = new Cartesia({
    apiKey,
    baseURL: tlsServer.url,
    maxRetries: 0,
    fetch: undiciFetch as unknown as typeof fetch,
    fetchOptions: { dispatcher: tlsAgent } as NonNullable<
      ConstructorParameters<typeof Cartesia>[0]
    >['fetchOptions'],
  });
});
afterAll(async () => {
  await Promise.all([server.close(), tlsServer.close()]);
  await tlsAgent.close();
});

const voice = { mode: 'id', id: 'a0e99841-438c-4a64-b679-ae501e7d6091' } as const;

describe('@cartesia/cartesia-js 4 against the Cartesia mock (loopback)', () => {
  it('tts.generate (/tts/bytes) streams the raw audio the mock makes', async () => {
    const format = { encoding: 'pcm_s16le', sampleRate: 24000 } as const;
    const response = await client.tts.generate({
      model_id: 'sonic-3',
      transcript: 'Hello from the official client.',
      voice,
      output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 24000 },
    });
    const body = new Uint8Array(await response.arrayBuffer());
    expect(body).toEqual(mockCartesiaAudio('Hello from the official client.', format));
    const record = mock.requests.at(-1)!;
    expect(record.path).toBe('/tts/bytes');
    expect(record.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(record.headers['cartesia-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('tts.generate over https://, the CA given through an undici dispatcher, gets the same bytes', async () => {
    const response = await tlsClient.tts.generate({
      model_id: 'sonic-3',
      transcript: 'Over TLS.',
      voice,
      output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 24000 },
    });
    const body = new Uint8Array(await response.arrayBuffer());
    expect(body).toEqual(mockCartesiaAudio('Over TLS.', { encoding: 'pcm_s16le', sampleRate: 24000 }));
    expect(mock.requests.at(-1)!.url).toBe(`${tlsServer.url}/tts/bytes`);
  });

  it('tts.generateSSE (/tts/sse) yields chunk and timestamps events, then done', async () => {
    const stream = await client.tts.generateSSE({
      model_id: 'sonic-3',
      transcript: 'Hi there.',
      voice,
      output_format: { container: 'raw', encoding: 'pcm_mulaw', sample_rate: 8000 },
      add_timestamps: true,
    });
    const types: string[] = [];
    const audio: Buffer[] = [];
    const words: string[] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'chunk') audio.push(Buffer.from(event.data, 'base64'));
      if (event.type === 'timestamps') words.push(...(event.word_timestamps?.words ?? []));
    }
    expect(types.at(-1)).toBe('done');
    expect(types.filter((t) => t === 'chunk').length).toBeGreaterThan(0);
    expect(words).toEqual(['Hi', 'there.']);
    expect(new Uint8Array(Buffer.concat(audio))).toEqual(
      mockCartesiaAudio('Hi there.', { encoding: 'mulaw', sampleRate: 8000 }),
    );
  });

  it('tts.websocket: a context with two pushed pieces streams the audio of the whole text, then done', async () => {
    // The SDK always dials wss:// (buildURL forces it): the TLS mock, its CA handed to ws.
    expect(tlsServer.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const ws = await tlsClient.tts.websocket({ ca: tlsServer.ca });
    try {
      const ctx = ws.context({
        model_id: 'sonic-3',
        voice,
        output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 16000 },
        add_timestamps: true,
      });
      await ctx.push({ transcript: 'Hello ' });
      await ctx.push({ transcript: 'world.' });
      await ctx.no_more_inputs();
      const audio: Buffer[] = [];
      const types: string[] = [];
      for await (const event of ctx.receive({ timeout: 5000 })) {
        types.push(event.type);
        if (event.type === 'chunk' && event.audio) audio.push(Buffer.from(event.audio));
      }
      expect(types.at(-1)).toBe('done');
      expect(types).toContain('timestamps');
      expect(new Uint8Array(Buffer.concat(audio))).toEqual(
        mockCartesiaAudio('Hello world.', { encoding: 'pcm_s16le', sampleRate: 16000 }),
      );
      const record = mock.sockets.at(-1)!;
      expect(record.path).toBe('/tts/websocket');
      expect(record.headers.authorization).toBe(`Bearer ${apiKey}`);
      expect(record.messages.map((m) => (m as { continue?: boolean }).continue)).toEqual([true, true, false]);
    } finally {
      ws.close();
    }
  });

  it('tts.websocket flush: chunk, timestamps and flush_done carry flush_id (1 up to the first flush, then 2)', async () => {
    const ws = await tlsClient.tts.websocket({ ca: tlsServer.ca });
    try {
      const ctx = ws.context({
        model_id: 'sonic-3',
        voice,
        output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 16000 },
        add_timestamps: true,
      });
      await ctx.push({ transcript: 'Stay hungry, ' });
      await ctx.flush();
      await ctx.push({ transcript: 'stay foolish.' });
      await ctx.no_more_inputs();
      const events: string[] = [];
      const audioByFlush = new Map<number, Buffer[]>();
      for await (const event of ctx.receive({ timeout: 5000 })) {
        const flushId = 'flush_id' in event ? event.flush_id : undefined;
        events.push(`${event.type}:${flushId ?? '-'}`);
        if (event.type === 'chunk' && event.audio) {
          const list = audioByFlush.get(event.flush_id ?? 0) ?? [];
          list.push(Buffer.from(event.audio));
          audioByFlush.set(event.flush_id ?? 0, list);
        }
      }
      // Each kind of message in order, runs of the same (type, flush_id) folded into one entry.
      const runs = (list: string[]) => list.filter((e, i) => e !== list[i - 1]);
      expect(runs(events.filter((e) => !e.startsWith('timestamps')))).toEqual([
        'chunk:1',
        'flush_done:1',
        'chunk:2',
        'done:-',
      ]);
      expect(runs(events.filter((e) => e.startsWith('timestamps')))).toEqual([
        'timestamps:1',
        'timestamps:2',
      ]);
      expect([...audioByFlush.keys()]).toEqual([1, 2]);
      const all = new Uint8Array(Buffer.concat([...audioByFlush.get(1)!, ...audioByFlush.get(2)!]));
      expect(all).toEqual(
        mockCartesiaAudio('Stay hungry, stay foolish.', { encoding: 'pcm_s16le', sampleRate: 16000 }),
      );
    } finally {
      ws.close();
    }
  });

  it('stt.manualFinalize.websocket: binary audio, finalize, transcripts, flush_done, close, done', async () => {
    const format = { encoding: 'pcm_s16le', sampleRate: 16000 } as const;
    const ws = client.stt.manualFinalize.websocket({
      model: 'ink-whisper',
      encoding: 'pcm_s16le',
      sample_rate: 16000,
    });
    const finals: string[] = [];
    const types: string[] = [];
    let sent = false;
    for await (const item of ws) {
      if (item.type === 'open' && !sent) {
        sent = true;
        ws.sendRaw(mockCartesiaAudio('x'.repeat(10), format));
        ws.send('finalize');
      }
      if (item.type === 'message') {
        types.push(item.message.type);
        if (item.message.type === 'transcript' && item.message.is_final) finals.push(item.message.text ?? '');
        if (item.message.type === 'flush_done') ws.send('close');
      }
      if (item.type === 'close') break;
    }
    expect(finals).toEqual(['How are you']);
    expect(types).toEqual(['transcript', 'transcript', 'transcript', 'flush_done', 'done']);
    const record = mock.sockets.at(-1)!;
    expect(new URL(record.url).searchParams.get('encoding')).toBe('pcm_s16le');
    expect(record.frames.map((f) => (f.type === 'text' ? f.data : 'binary'))).toEqual([
      'binary',
      'finalize',
      'close',
    ]);
  });
});
