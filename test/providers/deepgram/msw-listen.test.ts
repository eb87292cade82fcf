import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/errors/index.js';
import { createDeepgramAdapter } from '../../../src/providers/deepgram/index.js';
import { createDeepgramMock, deepgramHandlers, syntheticAudio } from '../../../src/testing/index.js';
import { createHttpTransport } from '../../../src/transport/index.js';
import { createWebSocketTransport } from '../../../src/transport/websocket.js';
import type { AudioFormat } from '../../../src/types/audio.js';
import { AudioFeed, attemptOf, collect, collectUntilError, KEY, pieces } from './helpers.js';

const PCM16K: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16000 };
const noGlobalWebSocket = typeof globalThis.WebSocket === 'undefined';

// msw intercepts WebSocket only through the runtime's global WebSocket (Node >= 22).
describe.skipIf(noGlobalWebSocket)(
  'Deepgram listen adapter through msw (needs a global WebSocket: Node >= 22)',
  () => {
    const mock = createDeepgramMock({
      apiKey: KEY,
      transcript: 'One two. Three',
      wordMs: 100,
      inactivityTimeoutMs: 0,
    });
    const msw = setupServer(...deepgramHandlers({ provider: mock }));
    const http = createHttpTransport();
    beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
    afterAll(async () => {
      msw.close();
      await http.close();
    });

    it('authenticates with the token subprotocol (a standard WebSocket sends no headers) and transcribes', async () => {
      const webSocket = createWebSocketTransport({ useGlobalWebSocket: true });
      expect(webSocket.canSendHeaders).toBe(false);
      const stt = createDeepgramAdapter({
        name: 'dg',
        baseUrl: 'https://api.deepgram.com',
        apiKey: KEY,
        stt: { model: 'nova-3' },
      }).stt!;
      const feed = new AudioFeed();
      feed.push(...pieces(syntheticAudio({ durationMs: 300, format: PCM16K }), 3200));
      feed.end();
      const events = await collect(
        stt.transcribe({ audio: feed, format: PCM16K, interim: false }, attemptOf(http, { webSocket })),
      );
      expect(events.map((e) => [e.type, e.text, e.startMs, e.endMs])).toEqual([
        ['final', 'one two', 0, 200],
        ['final', 'three', 200, 300],
      ]);
      const session = mock.sessions.at(-1)!;
      expect(session.record.headers['sec-websocket-protocol']).toBe(`token, ${KEY}`);
      expect(session.record.url).toBe(
        'https://api.deepgram.com/v1/listen?model=nova-3&encoding=linear16&sample_rate=16000&channels=1&interim_results=false',
      );
    });

    it('a wrong key is refused: msw closes with 1008, a non-retryable auth error', async () => {
      const webSocket = createWebSocketTransport({ useGlobalWebSocket: true });
      const stt = createDeepgramAdapter({
        name: 'dg',
        baseUrl: 'https://api.deepgram.com',
        apiKey: 'dg-wrong-key-000000',
        stt: { model: 'nova-3' },
      }).stt!;
      const feed = new AudioFeed();
      feed.push(...pieces(syntheticAudio({ durationMs: 100, format: PCM16K }), 3200));
      const { error } = await collectUntilError(
        stt.transcribe({ audio: feed, format: PCM16K, interim: false }, attemptOf(http, { webSocket })),
      );
      expect(ProviderError.isInstance(error)).toBe(true);
      expect([(error as ProviderError).status, (error as ProviderError).retryable]).toEqual([1008, false]);
      expect((error as ProviderError).message).not.toContain('dg-wrong-key-000000');
    });
  },
);
