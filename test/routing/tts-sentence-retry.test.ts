import { afterEach, describe, expect, it } from 'vitest';
import {
  type AudioChunk,
  createRouter,
  MidStreamError,
  ProviderError,
  type RouterConfig,
} from '../../src/index.js';
import {
  createOpenAiCompatibleMock,
  type MockScript,
  mockSpeechPcm,
  type OpenAiCompatibleMock,
  startMockServer,
} from '../../src/testing/index.js';

const sentences = ['Hello there, friend.', 'How are you today?', 'Fine, thanks.'];
const text = sentences.join(' ');
const concat = (parts: Uint8Array[]) => Buffer.concat(parts.map((p) => Buffer.from(p)));
const inputs = (m: OpenAiCompatibleMock) => m.requests.map((r) => (r.body as { input: string }).input);

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** Providers a and b on loopback servers; a's speech calls follow `scriptA` (call 1 = sentence 1). */
async function setup(
  scriptA: (call: number, input: string) => MockScript,
  midStream?: 'resume',
  scriptB: (call: number, input: string) => MockScript = () => ({}),
) {
  const a = createOpenAiCompatibleMock({
    script: { speech: ({ call, request }) => scriptA(call, (request.body as { input: string }).input) },
  });
  const b = createOpenAiCompatibleMock({
    script: { speech: ({ call, request }) => scriptB(call, (request.body as { input: string }).input) },
  });
  const [sa, sb] = await Promise.all([startMockServer({ provider: a }), startMockServer({ provider: b })]);
  const provider = (url: string) => ({
    kind: 'openai-compatible' as const,
    baseUrl: `${url}/v1`,
    tts: { voices: { agent: 'alloy' } },
  });
  const routes: RouterConfig['routes'] = {
    tts: { providers: ['a', 'b'], strategy: 'priority', ...(midStream ? { midStream } : {}) },
  };
  const router = createRouter({ providers: { a: provider(sa.url), b: provider(sb.url) }, routes });
  close = async () => {
    await router.close();
    await Promise.all([sa.close(), sb.close()]);
  };
  return { router, a, b };
}

async function speak(router: ReturnType<typeof createRouter>) {
  const chunks: AudioChunk[] = [];
  const stream = router.tts({ text, voice: 'agent' });
  let error: unknown;
  try {
    for await (const c of stream) chunks.push(c);
  } catch (e) {
    error = e;
  }
  return { chunks, error, result: error ? undefined : await stream.result };
}

const allSpeech = () => concat(sentences.map((s) => mockSpeechPcm(s)));

describe('a later sentence that fails before its first byte is retried on the same provider first', () => {
  it('connection reset before the first byte of sentence 2: retried on a, every sentence heard once', async () => {
    let resets = 0;
    const { router, a, b } = await setup((_, input) =>
      input === sentences[1] && resets++ === 0 ? { resetAfterChunks: 0 } : {},
    );
    const { chunks, error, result } = await speak(router);
    expect(error).toBeUndefined();
    expect(concat(chunks.map((c) => c.data)).equals(allSpeech())).toBe(true);
    expect(chunks.some((c) => c.discontinuity)).toBe(false);
    expect(inputs(a)).toEqual([sentences[0], sentences[1], sentences[1], sentences[2]]);
    expect(b.requests).toHaveLength(0);
    expect(result!.provider).toBe('a');
    expect(result!.attempts.map((x) => [x.provider, x.outcome])).toEqual([['a', 'success']]);
  });

  it('503 before the first byte of sentence 2: retried on a, every sentence heard once', async () => {
    const { router, a, b } = await setup((call) => (call === 2 ? { failTimes: 99, failStatus: 503 } : {}));
    const { chunks, error } = await speak(router);
    expect(error).toBeUndefined();
    expect(concat(chunks.map((c) => c.data)).equals(allSpeech())).toBe(true);
    expect(inputs(a)).toEqual([sentences[0], sentences[1], sentences[1], sentences[2]]);
    expect(b.requests).toHaveLength(0);
  });

  it("503 twice (the retry fails too), midStream 'error': MidStreamError after sentence 1, b never asked", async () => {
    const { router, a, b } = await setup((call) =>
      call === 2 || call === 3 ? { failTimes: 99, failStatus: 503 } : {},
    );
    const { chunks, error } = await speak(router);
    expect(MidStreamError.isInstance(error)).toBe(true);
    const cause = (error as MidStreamError).cause;
    expect(ProviderError.isInstance(cause) && cause.status).toBe(503);
    expect(concat(chunks.map((c) => c.data)).equals(Buffer.from(mockSpeechPcm(sentences[0]!)))).toBe(true);
    expect(inputs(a)).toEqual([sentences[0], sentences[1], sentences[1]]);
    expect(b.requests).toHaveLength(0);
  });

  it("every request of sentence 2 reset, midStream 'resume': b takes sentence 2 over and speaks the rest", async () => {
    const { router, a, b } = await setup(
      (_, input) => (input === sentences[1] ? { resetAfterChunks: 0 } : {}),
      'resume',
    );
    const { chunks, error, result } = await speak(router);
    expect(error).toBeUndefined();
    expect(concat(chunks.map((c) => c.data)).equals(allSpeech())).toBe(true);
    // One switch of provider: a -> b at sentence 2; b keeps sentence 3.
    const starts = chunks.flatMap((c, i) => (c.discontinuity ? [i] : []));
    expect(starts).toHaveLength(1);
    expect(
      concat(chunks.slice(starts[0]).map((c) => c.data)).equals(
        concat([mockSpeechPcm(sentences[1]!), mockSpeechPcm(sentences[2]!)]),
      ),
    ).toBe(true);
    // Sentence 2 was asked of a twice by the sentence retry (plus once more by the transport
    // when a reset hit a reused keep-alive socket), never more; a is not asked for sentence 3
    // after its failure.
    const asked = inputs(a);
    expect(asked[0]).toBe(sentences[0]);
    expect(asked.slice(1).every((s) => s === sentences[1])).toBe(true);
    expect([2, 3]).toContain(asked.length - 1);
    expect(inputs(b)).toEqual([sentences[1], sentences[2]]);
    expect(result!.provider).toBe('b');
    expect(result!.attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'failed'],
      ['b', 'success'],
    ]);
  });

  it("503 with Retry-After on sentence 2, midStream 'resume': a's breaker opens, b speaks the rest", async () => {
    const { router, a, b } = await setup(
      (_, input) => (input === sentences[1] ? { failTimes: 99, failStatus: 503, retryAfter: '30' } : {}),
      'resume',
    );
    const breakers: string[] = [];
    router.on('breaker', (e) => breakers.push(`${e.provider}:${e.from}->${e.to}`));
    const { chunks, error, result } = await speak(router);
    expect(error).toBeUndefined();
    expect(concat(chunks.map((c) => c.data)).equals(allSpeech())).toBe(true);
    expect(chunks.filter((c) => c.discontinuity)).toHaveLength(1);
    expect(inputs(a)).toEqual([sentences[0], sentences[1], sentences[1]]);
    expect(inputs(b)).toEqual([sentences[1], sentences[2]]);
    expect(breakers).toEqual(['a:closed->open']);
    expect(result!.provider).toBe('b');
    expect(result!.attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'failed'],
      ['b', 'success'],
    ]);
  });

  it("a would fail sentences 2 and 3, midStream 'resume': b takes sentence 2 over and keeps the rest, a is not asked again", async () => {
    const four = [...sentences, 'See you soon.'];
    const { router, a, b } = await setup(
      (_, input) => (input === four[1] || input === four[2] ? { failTimes: 99, failStatus: 503 } : {}),
      'resume',
    );
    const chunks: AudioChunk[] = [];
    const stream = router.tts({ text: four.join(' '), voice: 'agent' });
    for await (const c of stream) chunks.push(c);
    expect(concat(chunks.map((c) => c.data)).equals(concat(four.map((s) => mockSpeechPcm(s))))).toBe(true);
    expect(chunks.filter((c) => c.discontinuity)).toHaveLength(1);
    // Sentence 2: asked of a twice (the sentence retry), then b speaks from there on.
    expect(inputs(a)).toEqual([four[0], four[1], four[1]]);
    expect(inputs(b)).toEqual([four[1], four[2], four[3]]);
    expect((await stream.result).attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'failed'],
      ['b', 'success'],
    ]);
  });

  it("both providers fail sentence 2, midStream 'resume': MidStreamError after sentence 1, each asked as the rules say", async () => {
    const fail = (_: number, input: string): MockScript =>
      input === sentences[1] ? { failTimes: 99, failStatus: 503 } : {};
    const { router, a, b } = await setup(fail, 'resume', fail);
    const { chunks, error } = await speak(router);
    expect(MidStreamError.isInstance(error)).toBe(true);
    const cause = (error as MidStreamError).cause;
    expect(ProviderError.isInstance(cause) && [cause.provider, cause.status]).toEqual(['a', 503]);
    expect(concat(chunks.map((c) => c.data)).equals(Buffer.from(mockSpeechPcm(sentences[0]!)))).toBe(true);
    // a: sentence 2 twice (the sentence retry); b: once (its attempt's first sentence), then
    // every provider has failed at sentence 2 and none is asked again.
    expect(inputs(a)).toEqual([sentences[0], sentences[1], sentences[1]]);
    expect(inputs(b)).toEqual([sentences[1]]);
  });

  it('400 before the first byte of sentence 2 (a bad request) is not retried', async () => {
    const { router, a } = await setup((call) => (call === 2 ? { failTimes: 99, failStatus: 400 } : {}));
    const { error } = await speak(router);
    expect(MidStreamError.isInstance(error)).toBe(true);
    expect(inputs(a)).toEqual([sentences[0], sentences[1]]);
  });

  it('the first sentence of the call is not retried on the same provider: the route falls back to b', async () => {
    const { router, a, b } = await setup((call) => (call === 1 ? { failTimes: 99, failStatus: 503 } : {}));
    const { chunks, error, result } = await speak(router);
    expect(error).toBeUndefined();
    expect(concat(chunks.map((c) => c.data)).equals(allSpeech())).toBe(true);
    expect(inputs(a)).toEqual([sentences[0]]);
    expect(inputs(b)).toEqual(sentences);
    expect(result!.provider).toBe('b');
  });
});
