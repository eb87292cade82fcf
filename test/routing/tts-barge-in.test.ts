import { afterEach, describe, expect, it } from 'vitest';
import { AbortError, type AudioChunk, createRouter, RequestError, type Router } from '../../src/index.js';
import { createOpenAiCompatibleMock, mockSpeechPcm, startMockServer } from '../../src/testing/index.js';

/**
 * A text source (LLM tokens) that yields `tokens`, then waits forever; records when it is
 * asked for more and whether it was return()ed.
 */
function stallingText(tokens: string[]) {
  let i = 0;
  let asked!: () => void;
  const stalled = new Promise<void>((r) => {
    asked = r;
  });
  const source = {
    returned: 0,
    /** Resolves when the source was asked for the token after the last one it has. */
    stalled,
    [Symbol.asyncIterator]() {
      return this;
    },
    next(): Promise<IteratorResult<string>> {
      if (i < tokens.length) return Promise.resolve({ done: false, value: tokens[i++]! });
      asked();
      return new Promise(() => {});
    },
    return(): Promise<IteratorResult<string>> {
      source.returned++;
      return Promise.resolve({ done: true, value: undefined });
    },
  };
  return source;
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function setup(): Promise<{ router: Router; requests: () => string[] }> {
  const mock = createOpenAiCompatibleMock();
  const server = await startMockServer({ provider: mock });
  const router = createRouter({
    providers: {
      a: { kind: 'openai-compatible', baseUrl: `${server.url}/v1`, tts: { voices: { agent: 'alloy' } } },
    },
    routes: { tts: { providers: ['a'], strategy: 'priority' } },
  });
  close = async () => {
    await router.close();
    await server.close();
  };
  return { router, requests: () => mock.requests.map((r) => (r.body as { input: string }).input) };
}

async function errorOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  return undefined;
}

describe('tts barge-in while the text source waits', () => {
  it('signal.abort() before any text ends the call with AbortError and return()s the text iterator', async () => {
    const { router, requests } = await setup();
    const text = stallingText([]);
    const abort = new AbortController();
    const stream = router.tts({ text, voice: 'agent', signal: abort.signal });
    const drained = (async () => {
      for await (const _ of stream) {
        // nothing can arrive
      }
    })();
    await text.stalled;
    abort.abort();
    const error = await errorOf(drained);
    expect(AbortError.isInstance(error)).toBe(true);
    expect(AbortError.isInstance(await errorOf(stream.result))).toBe(true);
    expect(text.returned).toBe(1);
    expect(requests()).toEqual([]);
  });

  it('signal.abort() between sentences ends the call after the first sentence, exact bytes, return()ed once', async () => {
    const { router, requests } = await setup();
    const text = stallingText(['Hello there. ', 'How']);
    const abort = new AbortController();
    const stream = router.tts({ text, voice: 'agent', signal: abort.signal });
    const chunks: AudioChunk[] = [];
    const drained = (async () => {
      for await (const c of stream) chunks.push(c);
    })();
    await text.stalled;
    // Wait until sentence 1 is fully delivered (the call then waits on the text alone).
    const s1 = mockSpeechPcm('Hello there.');
    while (chunks.reduce((n, c) => n + c.data.byteLength, 0) < s1.byteLength) {
      await new Promise((r) => setImmediate(r));
    }
    abort.abort();
    const error = await errorOf(drained);
    expect(AbortError.isInstance(error)).toBe(true);
    expect(Buffer.concat(chunks.map((c) => c.data)).equals(Buffer.from(s1))).toBe(true);
    expect(text.returned).toBe(1);
    expect(requests()).toEqual(['Hello there.']);
  });

  it('router.close() ends a call whose text source never yields, with AbortError', async () => {
    const { router } = await setup();
    const text = stallingText([]);
    const stream = router.tts({ text, voice: 'agent' });
    const drained = (async () => {
      for await (const _ of stream) {
        // nothing can arrive
      }
    })();
    await text.stalled;
    await router.close();
    const error = await errorOf(drained);
    expect(AbortError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe('The router was closed');
    expect(text.returned).toBe(1);
  });

  it('breaking out of the loop return()s the text iterator', async () => {
    const { router } = await setup();
    const text = stallingText(['Hello there. ', 'How']);
    for await (const _ of router.tts({ text, voice: 'agent' })) break;
    expect(text.returned).toBe(1);
  });

  it('an error of the text source before any sentence rejects result with a RequestError caused by it', async () => {
    const { router } = await setup();
    const boom = new Error('llm failed');
    async function* text(): AsyncGenerator<string> {
      yield 'Hel';
      throw boom;
    }
    const stream = router.tts({ text: text(), voice: 'agent' });
    const error = await errorOf(
      (async () => {
        for await (const _ of stream) {
          // none
        }
      })(),
    );
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).field).toBe('text');
    expect((error as RequestError).cause).toBe(boom);
    expect(await errorOf(stream.result)).toBe(error);
  });
});
