/**
 * C35: a caller's abort before the first chunk (barge-in) is not the provider's failure: the
 * call rejects with AbortError and yields nothing, no fallback starts, the provider's breaker
 * stays closed with no error counted, and the next call is served by it. Servers speak the
 * wire on their own (loopback); the abort is sent once the provider has the request, well
 * inside its normal time to first chunk.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { AbortError, type Router, type RouterConfig } from '../../src/index.js';
import { sendCartesiaContext } from './wire/cartesia-context.js';
import {
  answerChat,
  answerPcm,
  concat,
  drain,
  type HttpWire,
  httpServer,
  pcmSignal,
  pieces,
  readBody,
  router,
  wsServer,
} from './wire/servers.js';

const AUDIO = pcmSignal(4800, 24_000, 2);
const SPEECH_16K = pcmSignal(16_000, 16_000, 1);
const A_DELAY_MS = 400;

/** A server that answers each request with `answer` after `delayMs` (unless the client left). */
async function delayed(delayMs: number, answer: (res: ServerResponse) => void): Promise<HttpWire> {
  return httpServer(async (req: IncomingMessage, res: ServerResponse) => {
    await readBody(req);
    const timer = setTimeout(() => {
      if (!res.destroyed) answer(res);
    }, delayMs);
    res.on('close', () => clearTimeout(timer));
  });
}

const transcript = (res: ServerResponse, text: string) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ text }));
};

type Capability = 'tts' | 'stt' | 'chat';

function provider(capability: Capability, baseUrl: string) {
  const base = { kind: 'openai-compatible' as const, baseUrl };
  if (capability === 'tts') return { ...base, tts: { voices: { agent: 'alloy' } } };
  if (capability === 'stt') return { ...base, stt: { model: 'whisper', streaming: false } };
  return { ...base, chat: { models: { fast: 'm' } } };
}

function config(capability: Capability, a: string, b: string): RouterConfig {
  return {
    providers: { a: provider(capability, a), b: provider(capability, b) },
    routes: {
      [capability]: { providers: ['a', 'b'], strategy: 'priority', firstChunkTimeoutMs: false },
    },
  };
}

function call(
  r: Router,
  capability: Capability,
  signal?: AbortSignal,
): AsyncIterable<unknown> & {
  result: Promise<{ provider: string }>;
} {
  const s = signal ? { signal } : {};
  if (capability === 'tts') return r.tts({ text: 'Your table is booked.', voice: 'agent', ...s });
  if (capability === 'stt') {
    return r.stt({
      audio: pieces(SPEECH_16K, 3200),
      format: { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 },
      ...s,
    });
  }
  return r.chat({ messages: [{ role: 'user', content: 'Book a table.' }], model: 'fast', ...s });
}

/** Seven calls aborted once A has the request, then one normal call. */
async function bargeInSeven(capability: Capability, a: HttpWire, b: HttpWire): Promise<Router> {
  const r = router(config(capability, a.url, b.url));
  const seen: string[] = [];
  r.on('fallback', (e) => seen.push(`fallback:${e.provider}`));
  r.on('error', (e) => seen.push(`error:${e.provider}`));
  r.on('breaker', (e) => seen.push(`breaker:${e.provider}:${e.to}`));
  for (let i = 1; i <= 7; i++) {
    const controller = new AbortController();
    const stream = call(r, capability, controller.signal);
    void a.request(i).then(() => controller.abort(new Error('barge-in')));
    const { items, error } = await drain(stream);
    expect(items).toEqual([]);
    expect(AbortError.isInstance(error)).toBe(true);
    await expect(stream.result).rejects.toBe(error);
  }
  expect(seen).toEqual([]);
  expect(b.hits).toBe(0);
  expect(stateOf(r, 'a')).toEqual({ breaker: 'closed', errors: 0 });
  return r;
}

/**
 * Breaker state and error count of `provider` (stats() lists only providers with a sample, an
 * error or a call in flight: one absent has neither errors nor an open breaker).
 */
function stateOf(r: Router, provider: string): { breaker: string; errors: number } {
  const p = r.stats().providers.find((x) => x.provider === provider);
  return { breaker: p?.breaker ?? 'closed', errors: p?.errors ?? 0 };
}

describe('C35: aborting before the first chunk is never charged to the provider', () => {
  it('C35: tts aborted seven times before the first audio chunk: AbortError, no fallback, A not charged, the eighth call served by A', async () => {
    const a = await delayed(A_DELAY_MS, (res) => answerPcm(res, AUDIO));
    const b = await delayed(0, (res) => answerPcm(res, pcmSignal(4800, 24_000, 5)));
    const r = await bargeInSeven('tts', a, b);
    const stream = r.tts({ text: 'Your table is booked.', voice: 'agent' });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(concat(items.map((c) => c.data)).equals(AUDIO)).toBe(true);
    expect((await stream.result).provider).toBe('a');
    expect(a.hits).toBe(8);
    expect(b.hits).toBe(0);
    const stats = r.stats().providers.find((p) => p.provider === 'a')!;
    expect([stats.breaker, stats.errors, stats.samples]).toEqual(['closed', 0, 1]);
  });

  it('C35: stt (batch transcription) aborted before the first transcript: AbortError, no fallback, A not charged', async () => {
    const a = await delayed(A_DELAY_MS, (res) => transcript(res, 'from a'));
    const b = await delayed(0, (res) => transcript(res, 'from b'));
    const r = await bargeInSeven('stt', a, b);
    const stream = call(r, 'stt');
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(items).toMatchObject([{ type: 'final', text: 'from a' }]);
    expect((await stream.result).provider).toBe('a');
    expect(b.hits).toBe(0);
  });

  it('C35: chat aborted before the first delta: AbortError, no fallback, A not charged', async () => {
    const a = await delayed(A_DELAY_MS, (res) => answerChat(res, 'from a'));
    const b = await delayed(0, (res) => answerChat(res, 'from b'));
    const r = await bargeInSeven('chat', a, b);
    const stream = call(r, 'chat');
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(items).toEqual([
      { type: 'text-delta', text: 'from a' },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect((await stream.result).provider).toBe('a');
    expect(b.hits).toBe(0);
  });

  it('C35: Cartesia WebSocket tts aborted before its first chunk: AbortError, no fallback, not charged, the eighth call served by Cartesia', async () => {
    let requests = 0;
    const arrived: Array<() => void> = [];
    const cartesia = await wsServer((ws: WebSocket) => {
      ws.on('message', (raw) => {
        const m = JSON.parse(String(raw)) as { context_id: string; transcript?: string; cancel?: boolean };
        if (m.cancel || !m.transcript) return;
        requests++;
        arrived.shift()?.();
        setTimeout(() => {
          if (ws.readyState !== ws.OPEN) return;
          sendCartesiaContext(ws, m.context_id, AUDIO);
        }, A_DELAY_MS);
      });
    });
    const b = await delayed(0, (res) => answerPcm(res, pcmSignal(4800, 24_000, 5)));
    const r = router({
      providers: {
        a: {
          kind: 'cartesia',
          baseUrl: cartesia.url,
          apiKey: 'sk_car_case_35',
          tts: { voices: { agent: 'car-voice' }, transport: 'websocket' },
        },
        b: provider('tts', b.url),
      },
      routes: { tts: { providers: ['a', 'b'], strategy: 'priority', firstChunkTimeoutMs: false } },
    });
    const seen: string[] = [];
    r.on('fallback', (e) => seen.push(`fallback:${e.provider}`));
    r.on('error', (e) => seen.push(`error:${e.provider}`));
    for (let i = 1; i <= 7; i++) {
      const controller = new AbortController();
      arrived.push(() => controller.abort(new Error('barge-in')));
      const { items, error } = await drain(
        r.tts({ text: 'Your table is booked.', voice: 'agent', signal: controller.signal }),
      );
      expect(items).toEqual([]);
      expect(AbortError.isInstance(error)).toBe(true);
    }
    expect(requests).toBe(7);
    expect(seen).toEqual([]);
    expect(stateOf(r, 'a')).toEqual({ breaker: 'closed', errors: 0 });
    const stream = r.tts({ text: 'Your table is booked.', voice: 'agent' });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(concat(items.map((c) => c.data)).equals(AUDIO)).toBe(true);
    expect((await stream.result).provider).toBe('a');
    expect(b.hits).toBe(0);
  });
});
