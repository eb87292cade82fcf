/**
 * A Cartesia message without a field the wire always carries (PROTOCOLS.md 1.4-1.6): a TTS
 * `chunk` without `data` was skipped, so a websocket synthesis waited for the idle deadline;
 * an STT `transcript` without `is_final` was taken for a partial, and the stream ended
 * normally with its words never delivered. Each is a malformed message: a retryable
 * ProtocolError naming the field, at once, and the route falls back. Servers speak the wire on
 * their own (ws and node:http on loopback).
 */
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../src/index.js';
import { cartesiaSttServer } from './wire/cartesia-stt-server.js';
import { concat, drain, httpServer, pcmSignal, pieces, router, sseFrames, wsServer } from './wire/servers.js';

const VOICES = { voices: { agent: 'v' } };
/** What B speaks: 100 ms of 24 kHz PCM s16le. */
const AUDIO = pcmSignal(2400, 24_000, 5);

function expectMissing(error: unknown, message: string) {
  expect(error).toBeInstanceOf(ProtocolError);
  const e = error as ProtocolError;
  expect([e.provider, e.retryable, e.partialOutput, e.message]).toEqual(['a', true, false, message]);
}

/** A Cartesia /tts/websocket answering each generation request with `chunk(context_id)` and, when `audio`, done. */
async function ttsWebSocket(chunk: (context_id: string) => Record<string, unknown>, done: boolean) {
  return wsServer((ws) => {
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as { context_id: string; transcript?: string; cancel?: boolean };
      if (m.cancel || !m.transcript?.trim()) return;
      ws.send(JSON.stringify(chunk(m.context_id)));
      if (done)
        ws.send(JSON.stringify({ type: 'done', context_id: m.context_id, done: true, status_code: 200 }));
    });
  });
}

async function speak(a: { url: string }, transport: 'websocket' | 'sse') {
  const b = await ttsWebSocket(
    (context_id) => ({
      type: 'chunk',
      context_id,
      data: AUDIO.toString('base64'),
      done: false,
      status_code: 206,
    }),
    true,
  );
  const r = router({
    providers: {
      a: { kind: 'cartesia', baseUrl: a.url, apiKey: 'test-key', tts: { ...VOICES, transport } },
      b: { kind: 'cartesia', baseUrl: b.url, apiKey: 'test-key', tts: { ...VOICES, transport: 'websocket' } },
    },
    // The old code waited out this idle deadline, then fell back with a TimeoutError.
    routes: { tts: { providers: ['a', 'b'], strategy: 'priority', idleTimeoutMs: 3000 } },
  });
  const fallbacks: unknown[] = [];
  r.on('fallback', (e) => fallbacks.push(e.error));
  const { items, error } = await drain(r.tts({ text: 'Hello there.', voice: 'agent' }));
  return { audio: concat(items.map((i) => i.data)), error, fallbacks };
}

describe('Cartesia TTS chunk without data', () => {
  it.each([
    ['missing', {}],
    ['null', { data: null }],
  ])('/tts/websocket, data %s: a ProtocolError at once, B speaks', async (_name, data) => {
    const a = await ttsWebSocket(
      (context_id) => ({ type: 'chunk', context_id, done: false, status_code: 206, ...data }),
      false,
    );
    const { audio, error, fallbacks } = await speak(a, 'websocket');
    expect(error).toBeUndefined();
    expect(fallbacks).toHaveLength(1);
    expectMissing(fallbacks[0], 'Unexpected TTS chunk at data: missing');
    expect(audio.equals(AUDIO)).toBe(true);
  });

  it('/tts/sse, data missing: a ProtocolError, B speaks', async () => {
    const a = await httpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        sseFrames([
          { type: 'chunk', done: false, status_code: 206 },
          { type: 'done', done: true, status_code: 200 },
        ]),
      );
    });
    const { audio, error, fallbacks } = await speak(a, 'sse');
    expect(error).toBeUndefined();
    expect(fallbacks).toHaveLength(1);
    expectMissing(fallbacks[0], 'Unexpected TTS chunk at data: missing');
    expect(audio.equals(AUDIO)).toBe(true);
  });
});

describe('Cartesia STT transcript without is_final', () => {
  it('a ProtocolError, B transcribes the audio from byte 0', async () => {
    const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
    const SPEECH = pcmSignal(8000, 16_000, 3);
    const server = async (transcript: Record<string, unknown>, heard: Buffer[]) =>
      (await cartesiaSttServer(() => ({ type: 'transcript', ...transcript }), { heard })).server;
    const heardByB: Buffer[] = [];
    const a = await server({ text: 'Hello', duration: 0.5 }, []);
    const b = await server({ text: 'second', is_final: true, duration: 0.5 }, heardByB);
    const provider = (url: string) => ({
      kind: 'cartesia' as const,
      baseUrl: url,
      apiKey: 'test-key',
      stt: { model: 'ink-whisper' },
    });
    const r = router({
      providers: { a: provider(a.url), b: provider(b.url) },
      routes: { stt: { providers: ['a', 'b'], strategy: 'priority' } },
    });
    const fallbacks: unknown[] = [];
    r.on('fallback', (e) => fallbacks.push(e.error));
    const stream = r.stt({ audio: pieces(SPEECH, 3200), format: FORMAT, interim: true });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(fallbacks).toHaveLength(1);
    expectMissing(fallbacks[0], 'Unexpected STT transcript message at is_final: missing');
    expect(concat(heardByB).equals(SPEECH)).toBe(true);
    expect(items.map((e) => `${e.type}:${e.text} [${e.startMs}, ${e.endMs}]`)).toEqual([
      'final:second [undefined, 500]',
    ]);
    expect((await stream.result).attempts.map((x) => `${x.provider}:${x.outcome}`)).toEqual([
      'a:failed',
      'b:success',
    ]);
  });
});
