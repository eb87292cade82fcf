import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { ProviderError } from '../../../src/errors/index.js';
import { createCartesiaAdapter } from '../../../src/providers/cartesia/index.js';
import type { AttemptContext } from '../../../src/providers/types.js';
import {
  cartesiaHandlers,
  createCartesiaMock,
  mockCartesiaAudio,
} from '../../../src/testing/cartesia/index.js';
import { createHttpTransport } from '../../../src/transport/index.js';
import { createWebSocketTransport } from '../../../src/transport/websocket.js';
import type { AudioFormat } from '../../../src/types/audio.js';
import { API_KEY, collect, collectUntilError, concat, textPieces } from './helpers.js';

const NATIVE = typeof globalThis.WebSocket === 'function';

/** The Cartesia WebSockets through msw's `ws` API, with voxroute's transport on the global WebSocket. */
function wsSuite(): void {
  const server = setupServer();
  const http = createHttpTransport();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(async () => {
    server.close();
    await http.close();
  });
  const webSocket = createWebSocketTransport({ useGlobalWebSocket: true });
  const attempt = (): AttemptContext => ({
    signal: new AbortController().signal,
    deadlines: { connectMs: 5000, idleMs: 5000 },
    transport: http,
    webSocket,
  });
  const format: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16000 };

  it('TTS: streamed text over /tts/websocket; the key goes in the query (no headers on a standard WebSocket)', async () => {
    const mock = createCartesiaMock({ apiKey: API_KEY });
    server.use(...cartesiaHandlers({ provider: mock }));
    const adapter = createCartesiaAdapter({
      name: 'cartesia',
      apiKey: API_KEY,
      webSocket,
      tts: { model: 'sonic-3', transport: 'websocket' },
    });
    try {
      const chunks = await collect(
        adapter.tts!.synthesize({ text: textPieces(['Hi ', 'there.']), voice: 'v', format }, attempt()),
      );
      expect(concat(chunks.map((c) => c.data))).toEqual(mockCartesiaAudio('Hi there.', format));
      const url = new URL(mock.sockets[0]!.url);
      expect([
        url.protocol,
        url.pathname,
        url.searchParams.get('api_key'),
        url.searchParams.get('cartesia_version'),
      ]).toEqual(['https:', '/tts/websocket', API_KEY, '2025-11-04']);
      // 'there.' ends a clause: a flush (transcript '') follows it, then the end of input.
      expect(mock.sockets[0]!.messages.map((m) => (m as { transcript: string }).transcript)).toEqual([
        'Hi ',
        'there.',
        '',
        '',
      ]);
    } finally {
      await adapter.close();
    }
  });

  it('STT: audio, finalize, final transcript, close, done over /stt/websocket', async () => {
    const mock = createCartesiaMock({ apiKey: API_KEY, transcript: 'Hello.' });
    server.use(...cartesiaHandlers({ provider: mock }));
    const adapter = createCartesiaAdapter({
      name: 'cartesia',
      apiKey: API_KEY,
      webSocket,
      stt: { model: 'ink-whisper' },
    });
    const audio = mockCartesiaAudio('xxxxxxxx', format);
    const events = await collect(
      adapter.stt!.transcribe(
        {
          audio: (async function* () {
            yield audio;
          })(),
          format,
          interim: false,
        },
        attempt(),
      ),
    );
    expect(events).toEqual([
      {
        type: 'final',
        text: 'Hello.',
        startMs: 0,
        endMs: 384,
        words: [{ word: 'Hello.', startMs: 0, endMs: 384 }],
      },
    ]);
    expect(mock.sockets[0]!.frames.map((f) => (f.type === 'text' ? f.data : f.data.byteLength))).toEqual([
      audio.byteLength,
      'finalize',
      'close',
    ]);
  });

  it('C18: a refused key (msw shows it as close 1008) is a ProviderError, not retryable, without the key', async () => {
    server.use(...cartesiaHandlers({ apiKey: 'another-key-0123456789' }));
    const adapter = createCartesiaAdapter({
      name: 'cartesia',
      apiKey: API_KEY,
      webSocket,
      tts: { model: 'sonic-3', transport: 'websocket' },
    });
    const { items, error } = await collectUntilError(
      adapter.tts!.synthesize({ text: textPieces(['Hi ', 'there.']), voice: 'v', format }, attempt()),
    );
    expect(items).toEqual([]);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect({
      status: (error as ProviderError).status,
      retryable: (error as ProviderError).retryable,
    }).toEqual({
      status: 1008,
      retryable: false,
    });
    expect((error as Error).message.includes(API_KEY)).toBe(false);
    await adapter.close();
  });
}

describe.skipIf(!NATIVE)(
  'Cartesia WebSockets through msw on the native global WebSocket (skipped on Node 20: none)',
  () => {
    wsSuite();
  },
);

describe.skipIf(NATIVE)(
  "Cartesia WebSockets through msw with the ws package's WebSocket as the global (Node 20)",
  () => {
    const had = Object.getOwnPropertyDescriptor(globalThis, 'WebSocket');
    // Installed at collection time, before msw's interceptor (set up in wsSuite's beforeAll) wraps it.
    Object.defineProperty(globalThis, 'WebSocket', {
      value: WsWebSocket,
      configurable: true,
      writable: true,
    });
    afterAll(() => {
      if (had) Object.defineProperty(globalThis, 'WebSocket', had);
      else delete (globalThis as { WebSocket?: unknown }).WebSocket;
    });
    wsSuite();
  },
);
