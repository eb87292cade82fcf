import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AbortError,
  AllProvidersFailedError,
  type ChatEvent,
  createRouter,
  MidStreamError,
  ProtocolError,
  ProviderError,
  RequestError,
  type RouterConfig,
  readWav,
} from '../../src/index.js';
import {
  createManualDelay,
  createOpenAiCompatibleMock,
  type MockScript,
  mockSpeechPcm,
  type OpenAiCompatibleMock,
  openAiCompatibleHandlers,
  type RecordedFile,
  startMockServer,
} from '../../src/testing/index.js';
import { drain as collect, concatData as concat } from '../helpers/index.js';
import { ManualClock } from './helpers.js';

type Mode = 'loopback' | 'msw';
const msw = setupServer();
beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
afterEach(() => msw.resetHandlers());
afterAll(() => msw.close());

interface Pair {
  a: OpenAiCompatibleMock;
  b: OpenAiCompatibleMock;
  config: RouterConfig;
  close(): Promise<void>;
  fetch?: typeof globalThis.fetch;
}

async function serve(
  mode: Mode,
  a: OpenAiCompatibleMock,
  b: OpenAiCompatibleMock,
  strategy: 'latency' | 'priority' = 'priority',
): Promise<Pair> {
  let urls: [string, string];
  let close = async () => {};
  if (mode === 'loopback') {
    const [sa, sb] = await Promise.all([startMockServer({ provider: a }), startMockServer({ provider: b })]);
    urls = [`${sa.url}/v1`, `${sb.url}/v1`];
    close = async () => {
      await Promise.all([sa.close(), sb.close()]);
    };
  } else {
    urls = ['http://a.mock.test/v1', 'http://b.mock.test/v1'];
    msw.use(
      ...openAiCompatibleHandlers({ baseUrl: urls[0], provider: a }),
      ...openAiCompatibleHandlers({ baseUrl: urls[1], provider: b }),
    );
  }
  const provider = (baseUrl: string) => ({
    kind: 'openai-compatible' as const,
    baseUrl,
    chat: { models: { fast: 'mock-llm' } },
    tts: { model: 'mock-tts', voices: { agent: 'alloy' } },
    stt: { model: 'mock-stt' },
  });
  const config: RouterConfig = {
    providers: { a: provider(urls[0]), b: provider(urls[1]) },
    routes: {
      chat: { providers: ['a', 'b'], strategy },
      tts: { providers: ['a', 'b'], strategy },
      stt: { providers: ['a', 'b'], strategy },
    },
  };
  return { a, b, config, close, ...(mode === 'msw' ? { fetch: globalThis.fetch } : {}) };
}

const chatRequest = { messages: [{ role: 'user' as const, content: 'hi' }], model: 'fast' };

const failing = (script: MockScript) =>
  createOpenAiCompatibleMock({ script, chat: 'from a', transcript: 'from a' });
const healthy = () =>
  createOpenAiCompatibleMock({
    chat: 'Your table is booked.',
    transcript: 'ask not what your country can do',
  });

describe.each<Mode>(['loopback', 'msw'])('createRouter over %s', (mode) => {
  it('C30: chat falls back past a provider that answers 503, and the caller sees only the good reply', async () => {
    const p = await serve(mode, failing({ failTimes: 99, failStatus: 503, retryAfter: '1' }), healthy());
    const router = createRouter(p.config, p.fetch ? { fetch: p.fetch } : {});
    try {
      const stream = router.chat(chatRequest);
      const { items, error } = await collect(stream);
      expect(error).toBeUndefined();
      const text = items
        .filter((e): e is Extract<ChatEvent, { type: 'text-delta' }> => e.type === 'text-delta')
        .map((e) => e.text);
      expect(text.join('')).toBe('Your table is booked.');
      expect(items.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
      const result = await stream.result;
      expect(result.provider).toBe('b');
      const first = result.attempts[0]!.error as ProviderError;
      expect(ProviderError.isInstance(first)).toBe(true);
      expect([first.status, first.retryAfterMs, first.retryable]).toEqual([503, 1000, true]);
      expect(p.a.calls('chat')).toBe(1);
      expect(p.b.calls('chat')).toBe(1);
    } finally {
      await router.close();
      await p.close();
    }
  });

  it('C28: chat cut after two deltas throws MidStreamError with the partial text, and never asks the next provider', async () => {
    const a = createOpenAiCompatibleMock({
      chat: { deltas: ['The answer ', 'is 4', '.'] },
      script: { chat: { resetAfterChunks: 3 } },
    });
    const p = await serve(mode, a, healthy());
    const router = createRouter(p.config, p.fetch ? { fetch: p.fetch } : {});
    try {
      const { items, error } = await collect(router.chat(chatRequest));
      // Chunks: role-only, 'The answer ', 'is 4', then the reset.
      expect(items).toEqual([
        { type: 'text-delta', text: 'The answer ' },
        { type: 'text-delta', text: 'is 4' },
      ]);
      expect(MidStreamError.isInstance(error)).toBe(true);
      const mid = error as MidStreamError;
      expect([mid.partialText, mid.partialOutput, mid.provider]).toEqual(['The answer is 4', true, 'a']);
      expect(p.b.calls('chat')).toBe(0);
    } finally {
      await router.close();
      await p.close();
    }
  });

  it('C29: a chat stream that ends without finish or [DONE] after output is not reported complete', async () => {
    const a = createOpenAiCompatibleMock({
      chat: { deltas: ['one ', 'two ', 'three'] },
      script: { chat: { endWithoutDone: true } },
    });
    const p = await serve(mode, a, healthy());
    const router = createRouter(p.config, p.fetch ? { fetch: p.fetch } : {});
    try {
      const { items, error } = await collect(router.chat(chatRequest));
      expect(items.map((e) => (e.type === 'text-delta' ? e.text : e.type))).toEqual([
        'one ',
        'two ',
        'three',
      ]);
      expect(MidStreamError.isInstance(error)).toBe(true);
      expect(ProtocolError.isInstance((error as MidStreamError).cause)).toBe(true);
      expect((error as MidStreamError).retryable).toBe(true);
    } finally {
      await router.close();
      await p.close();
    }
  });

  it('throws a 400 at once and does not ask the next provider', async () => {
    const p = await serve(mode, failing({ failTimes: 99, failStatus: 400 }), healthy());
    const router = createRouter(p.config, p.fetch ? { fetch: p.fetch } : {});
    try {
      const { items, error } = await collect(router.chat(chatRequest));
      expect(items).toEqual([]);
      expect(ProviderError.isInstance(error)).toBe(true);
      expect((error as ProviderError).status).toBe(400);
      expect(p.b.calls('chat')).toBe(0);
    } finally {
      await router.close();
      await p.close();
    }
  });

  it('lists every attempt when all providers fail', async () => {
    const p = await serve(
      mode,
      failing({ failTimes: 99, failStatus: 503 }),
      failing({ failTimes: 99, failStatus: 429 }),
    );
    const router = createRouter(p.config, p.fetch ? { fetch: p.fetch } : {});
    try {
      const stream = router.chat(chatRequest);
      const { error } = await collect(stream);
      expect(AllProvidersFailedError.isInstance(error)).toBe(true);
      expect(
        (error as AllProvidersFailedError).attempts.map((x) => [
          x.provider,
          (x.error as ProviderError).status,
        ]),
      ).toEqual([
        ['a', 503],
        ['b', 429],
      ]);
      await expect(stream.result).rejects.toBe(error);
    } finally {
      await router.close();
      await p.close();
    }
  });

  it('tts falls back past a reset and yields exactly the provider audio, in whole samples', async () => {
    const b = createOpenAiCompatibleMock({ script: { speech: { chunkBytes: 4063 } } });
    const p = await serve(mode, failing({ resetAfterChunks: 0 }), b);
    const router = createRouter(p.config, p.fetch ? { fetch: p.fetch } : {});
    try {
      const stream = router.tts({ text: 'Your table is booked.', voice: 'agent' });
      const { items, error } = await collect(stream);
      expect(error).toBeUndefined();
      for (const c of items) {
        expect(c.data.byteLength % 2).toBe(0);
        expect(c.format).toEqual({ encoding: 'pcm_s16le', sampleRate: 24000, channels: 1 });
      }
      expect(Buffer.from(concat(items)).equals(Buffer.from(mockSpeechPcm('Your table is booked.')))).toBe(
        true,
      );
      expect((await stream.result).provider).toBe('b');
      expect(b.requests[0]!.body).toMatchObject({
        model: 'mock-tts',
        voice: 'alloy',
        input: 'Your table is booked.',
        response_format: 'pcm',
      });
    } finally {
      await router.close();
      await p.close();
    }
  });

  it('C11: tts in mu-law 8 kHz converts 24 kHz PCM to exactly a third of the samples, labelled mu-law', async () => {
    const p = await serve(mode, healthy(), healthy());
    const router = createRouter(p.config, p.fetch ? { fetch: p.fetch } : {});
    try {
      const text = 'Hello there, friend.';
      const { items } = await collect(
        router.tts({ text, voice: 'agent', format: { encoding: 'mulaw', sampleRate: 8000 } }),
      );
      const pcmBytes = mockSpeechPcm(text).byteLength;
      expect(concat(items).byteLength).toBe(pcmBytes / 2 / 3);
      for (const c of items) expect(c.format).toEqual({ encoding: 'mulaw', sampleRate: 8000 });
    } finally {
      await router.close();
      await p.close();
    }
  });

  it('C32: tts of a text stream of only "", " " and "" yields nothing and contacts no provider', async () => {
    const p = await serve(mode, healthy(), healthy());
    const router = createRouter(p.config, p.fetch ? { fetch: p.fetch } : {});
    try {
      async function* tokens() {
        yield '';
        yield ' ';
        yield '';
      }
      const stream = router.tts({ text: tokens(), voice: 'agent' });
      const { items, error } = await collect(stream);
      expect([items.length, error]).toEqual([0, undefined]);
      expect([p.a.requests.length, p.b.requests.length]).toEqual([0, 0]);
      expect(router.stats().providers).toEqual([]);
      expect(await stream.result).toMatchObject({ provider: '', attempts: [] });
    } finally {
      await router.close();
      await p.close();
    }
  });

  it('stt sends the whole utterance again to the next provider after a failure before any transcript', async () => {
    const p = await serve(mode, failing({ failTimes: 99, failStatus: 502 }), healthy());
    const router = createRouter(p.config, p.fetch ? { fetch: p.fetch } : {});
    try {
      const pcm = new Uint8Array(16000 * 2); // 1 s of 16 kHz s16le
      for (let i = 0; i < pcm.length; i++) pcm[i] = i % 251;
      async function* audio() {
        for (let o = 0; o < pcm.length; o += 3001) yield pcm.subarray(o, o + 3001);
      }
      const stream = router.stt({ audio: audio(), format: { encoding: 'pcm_s16le', sampleRate: 16000 } });
      const { items, error } = await collect(stream);
      expect(error).toBeUndefined();
      expect(items).toEqual([
        { type: 'final', text: 'ask not what your country can do', startMs: 0, endMs: 1000 },
      ]);
      for (const mock of [p.a, p.b]) {
        const file = mock.requests[0]!.form!.file as RecordedFile;
        const wav = readWav(
          (async function* () {
            yield file.bytes;
          })(),
        );
        expect(await wav.format).toEqual({ encoding: 'pcm_s16le', sampleRate: 16000, channels: 1 });
        const parts: Uint8Array[] = [];
        for await (const d of wav.data) parts.push(d);
        expect(Buffer.concat(parts).equals(Buffer.from(pcm))).toBe(true);
      }
      expect((await stream.result).provider).toBe('b');
    } finally {
      await router.close();
      await p.close();
    }
  });

  it('breaking out of a tts loop closes the provider stream at once (barge-in)', async () => {
    const a = createOpenAiCompatibleMock({ script: { speech: { chunkBytes: 480, chunkGapMs: 5 } } });
    const p = await serve(mode, a, healthy());
    const router = createRouter(p.config, p.fetch ? { fetch: p.fetch } : {});
    try {
      const stream = router.tts({
        text: 'A long sentence that takes a while to speak out loud.',
        voice: 'agent',
      });
      for await (const _ of stream) break;
      expect(await a.requests[0]!.ended).toBe('aborted');
      expect(a.requests[0]!.aborted).toBe(true);
      expect((await stream.result).attempts[0]!.outcome).toBe('aborted');
    } finally {
      await router.close();
      await p.close();
    }
  });

  it("the caller's abort mid-stream ends with AbortError and the server sees the disconnect", async () => {
    const a = createOpenAiCompatibleMock({
      chat: { deltas: ['a', 'b', 'c'] },
      script: { chat: { stallAfterChunks: 2 } },
    });
    const p = await serve(mode, a, healthy());
    const router = createRouter(p.config, p.fetch ? { fetch: p.fetch } : {});
    try {
      const controller = new AbortController();
      const items: ChatEvent[] = [];
      let error: unknown;
      try {
        for await (const e of router.chat({ ...chatRequest, signal: controller.signal })) {
          items.push(e);
          controller.abort();
        }
      } catch (e) {
        error = e;
      }
      expect(items).toEqual([{ type: 'text-delta', text: 'a' }]);
      expect(AbortError.isInstance(error)).toBe(true);
      expect(await a.requests[0]!.ended).toBe('aborted');
      expect(p.b.calls('chat')).toBe(0);
    } finally {
      await router.close();
      await p.close();
    }
  });
});

describe('latency routing', () => {
  it('probes each provider, re-tries each once after its cold first call, then prefers the lower time to first chunk', async () => {
    // The slow provider's 80 ms pass on the router's clock while its mock waits, and only then:
    // the machine's speed adds nothing to either provider's time.
    const clock = new ManualClock();
    const time = createManualDelay();
    const slow = createOpenAiCompatibleMock({ delay: time.delay, script: { chat: { headersDelayMs: 80 } } });
    const fast = createOpenAiCompatibleMock();
    const p = await serve('loopback', slow, fast, 'latency');
    const router = createRouter(p.config, { clock });
    void (async () => {
      for (;;) {
        clock.advance(await time.whenWaiting());
        await time.release();
      }
    })();
    try {
      const served: string[] = [];
      for (let i = 0; i < 5; i++) {
        const s = router.chat(chatRequest);
        await collect(s);
        served.push((await s.result).provider);
      }
      // A first call (connection setup) is only an upper bound: each is tried once more, warm.
      expect(served).toEqual(['a', 'b', 'a', 'b', 'b']);
      const stats = router.stats().providers.filter((x) => x.capability === 'chat');
      expect(stats.map((x) => [x.provider, x.samples])).toEqual([
        ['a', 2],
        ['b', 3],
      ]);
      expect(stats.map((x) => [x.provider, x.ewmaMs])).toEqual([
        ['a', 80],
        ['b', 0],
      ]);
    } finally {
      await router.close();
      await p.close();
    }
  });
});

describe('latency routing: inFlightWeight', () => {
  // a answers in 100 ms, b in 150 ms (on the router's manual clock). With one call held on a,
  // the next call goes to a when load is ignored (100 < 150), and to b with inFlightWeight 1
  // (100 x (1 + 1) = 200 > 150).
  for (const [weight, expected] of [
    [undefined, 'a'],
    [1, 'b'],
  ] as const) {
    it(`inFlightWeight ${weight ?? 'unset (0)'}: a call made while a is busy goes to ${expected}`, async () => {
      const clock = new ManualClock();
      const ta = createManualDelay();
      const tb = createManualDelay();
      const a = createOpenAiCompatibleMock({ delay: ta.delay, script: { chat: { headersDelayMs: 100 } } });
      const b = createOpenAiCompatibleMock({ delay: tb.delay, script: { chat: { headersDelayMs: 150 } } });
      const p = await serve('loopback', a, b, 'latency');
      const chat = p.config.routes!.chat!;
      if (weight !== undefined) chat.inFlightWeight = weight;
      const router = createRouter(p.config, { clock });
      const measure = async (time: typeof ta, ms: number) => {
        const s = router.chat(chatRequest);
        const done = collect(s);
        await time.whenWaiting();
        clock.advance(ms);
        await time.release();
        await done;
        return (await s.result).provider;
      };
      try {
        // Each is probed (never tried, in listed order), then re-tried once warm (a first call
        // is only an upper bound): scores a 100, b 150.
        expect(await measure(ta, 100)).toBe('a');
        expect(await measure(tb, 150)).toBe('b');
        expect(await measure(ta, 100)).toBe('a');
        expect(await measure(tb, 150)).toBe('b');
        const held = router.chat(chatRequest);
        const heldDone = collect(held);
        await ta.whenWaiting();
        const next = router.chat(chatRequest);
        const nextDone = collect(next);
        const time = expected === 'a' ? ta : tb;
        // The held call's wait is the oldest on a: release it first, then the next call's.
        if (expected === 'a') await ta.release();
        await time.release();
        if (expected === 'b') await ta.release();
        await Promise.all([heldDone, nextDone]);
        expect((await held.result).provider).toBe('a');
        expect((await next.result).provider).toBe(expected);
        expect([a.calls('chat'), b.calls('chat')]).toEqual(expected === 'a' ? [4, 2] : [3, 3]);
      } finally {
        await router.close();
        await p.close();
      }
    });
  }
});

describe('circuit breakers in the router', () => {
  it('stops sending calls to a provider after 5 consecutive failures, and reports it', async () => {
    const p = await serve('loopback', failing({ failTimes: 99, failStatus: 503 }), healthy(), 'priority');
    const router = createRouter(p.config);
    const events: string[] = [];
    router.on('breaker', (e) =>
      events.push(`${e.provider}/${e.capability}: ${e.from} -> ${e.to} (${e.reason})`),
    );
    try {
      for (let i = 0; i < 7; i++) {
        const s = router.chat(chatRequest);
        await collect(s);
        expect((await s.result).provider).toBe('b');
      }
      expect(p.a.calls('chat')).toBe(5);
      expect(events).toEqual(['a/chat: closed -> open (consecutive-failures)']);
      const a = router.stats().providers.find((x) => x.provider === 'a' && x.capability === 'chat');
      expect(a).toMatchObject({ breaker: 'open', errors: 5, misconfigured: false });
    } finally {
      await router.close();
      await p.close();
    }
  });
});

describe('router.warmup()', () => {
  it('opens a keep-alive connection to every provider origin ahead of the first call, which then reuses it', async () => {
    const a = createOpenAiCompatibleMock();
    const b = createOpenAiCompatibleMock();
    const p = await serve('loopback', a, b, 'priority');
    const router = createRouter(p.config);
    try {
      const before = [a.requests.length, b.requests.length];
      await router.warmup();
      // Warm-up opened a connection but sent no API request the mocks would record as a call.
      expect([a.calls('chat'), b.calls('chat')]).toEqual([0, 0]);
      expect(before).toEqual([0, 0]);
      const s = router.chat(chatRequest);
      await collect(s);
      expect((await s.result).provider).toBe('a');
    } finally {
      await router.close();
      await p.close();
    }
  });
});

describe('requests the config cannot serve', () => {
  it('an unknown route, or a route of another capability, is a RequestError naming the route field', async () => {
    const p = await serve('loopback', healthy(), healthy());
    const router = createRouter(p.config);
    try {
      const unknown = await collect(router.tts({ text: 'Hi.', voice: 'agent', route: 'tts-premium' }));
      expect(RequestError.isInstance(unknown.error)).toBe(true);
      expect([(unknown.error as RequestError).field, (unknown.error as RequestError).message]).toEqual([
        'route',
        "Invalid request field 'route': no route named 'tts-premium' in the config; tts routes: tts",
      ]);
      const wrong = await collect(router.tts({ text: 'Hi.', voice: 'agent', route: 'chat' }));
      expect((wrong.error as RequestError).message).toBe(
        "Invalid request field 'route': route 'chat' is a chat route, not tts; tts routes: tts",
      );
      expect([p.a.requests.length, p.b.requests.length]).toEqual([0, 0]);
    } finally {
      await router.close();
      await p.close();
    }
  });

  it("a voice no provider maps is a RequestError at 'voice' listing the route's voices, and no provider is contacted", async () => {
    const p = await serve('loopback', healthy(), healthy());
    const router = createRouter(p.config);
    try {
      const { error } = await collect(router.tts({ text: 'Hi.', voice: 'narrator' }));
      expect(RequestError.isInstance(error)).toBe(true);
      expect([(error as RequestError).field, (error as RequestError).message]).toEqual([
        'voice',
        "Invalid request field 'voice': no voice 'narrator' on route 'tts'; its voices: agent",
      ]);
      expect([p.a.requests.length, p.b.requests.length]).toEqual([0, 0]);
    } finally {
      await router.close();
      await p.close();
    }
  });
});

describe('a per-call firstChunkTimeoutMs shortens only the attempts with a fallback behind them', () => {
  const slowChat = () =>
    createOpenAiCompatibleMock({ chat: 'late', script: { chat: { headersDelayMs: 200 } } });
  const provider = (url: string) => ({
    kind: 'openai-compatible' as const,
    baseUrl: `${url}/v1`,
    chat: { models: { fast: 'mock-llm' } },
  });

  it('two candidates: the first falls back at 40 ms, the last answers after 200 ms under the route deadline', async () => {
    const [a, b] = [slowChat(), slowChat()];
    const [sa, sb] = await Promise.all([startMockServer({ provider: a }), startMockServer({ provider: b })]);
    const router = createRouter({
      providers: { a: provider(sa.url), b: provider(sb.url) },
      routes: { chat: { providers: ['a', 'b'], strategy: 'priority', firstChunkTimeoutMs: 10_000 } },
    });
    try {
      const s = router.chat({ ...chatRequest, firstChunkTimeoutMs: 40 });
      const { items, error: thrown } = await collect(s);
      expect(thrown).toBeUndefined();
      expect(items.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text)).toEqual([
        'late',
      ]);
      const result = await s.result;
      expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
        ['a', 'failed'],
        ['b', 'success'],
      ]);
      const error = result.attempts[0]!.error as { phase?: string; timeoutMs?: number };
      expect([error.phase, error.timeoutMs]).toEqual(['first-chunk', 40]);
    } finally {
      await router.close();
      await Promise.all([sa.close(), sb.close()]);
    }
  });

  it('one candidate: it is the last, so a shorter per-call deadline leaves it the route deadline', async () => {
    const a = slowChat();
    const sa = await startMockServer({ provider: a });
    const router = createRouter({
      providers: { a: provider(sa.url) },
      routes: { chat: { providers: ['a'], strategy: 'priority', firstChunkTimeoutMs: 10_000 } },
    });
    try {
      const s = router.chat({ ...chatRequest, firstChunkTimeoutMs: 40 });
      expect((await collect(s)).error).toBeUndefined();
      const result = await s.result;
      expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([['a', 'success']]);
    } finally {
      await router.close();
      await sa.close();
    }
  });

  it('a per-call deadline longer than the route one is kept by the last candidate', async () => {
    const a = slowChat();
    const sa = await startMockServer({ provider: a });
    const router = createRouter({
      providers: { a: provider(sa.url) },
      routes: { chat: { providers: ['a'], strategy: 'priority', firstChunkTimeoutMs: 40 } },
    });
    try {
      const s = router.chat({ ...chatRequest, firstChunkTimeoutMs: 5_000 });
      expect((await collect(s)).error).toBeUndefined();
      expect((await s.result).attempts.map((x) => [x.provider, x.outcome])).toEqual([['a', 'success']]);
    } finally {
      await router.close();
      await sa.close();
    }
  });
});
