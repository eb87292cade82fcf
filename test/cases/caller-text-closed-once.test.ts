/**
 * The caller's text iterator is closed exactly once whatever ends the tts() call, and never
 * after it ended or threw on its own: a text that gives a non-string item (the call fails with a
 * RequestError, field `text`) is return()ed, so the caller's generator runs its `finally`
 * (closing its LLM stream). The server speaks OpenAI's speech wire on its own over loopback.
 */
import { describe, expect, it } from 'vitest';
import { RequestError } from '../../src/index.js';
import { pcmSignal, recordingSpeechServer, router } from './wire/servers.js';

const AUDIO = pcmSignal(480, 24_000, 3);

async function speechRouter() {
  const { wire, inputs } = await recordingSpeechServer(AUDIO);
  const r = router({
    providers: { p: { kind: 'openai-compatible', baseUrl: `${wire.url}/v1`, tts: { voices: { v: 'x' } } } },
    routes: { tts: { providers: ['p'], firstChunkTimeoutMs: false } },
  });
  return { r, inputs };
}

/** A caller's text: `items`, counting next() and return() calls and whether its finally ran. */
function counted(items: readonly unknown[]) {
  const seen = { nexts: 0, returns: 0, finallies: 0 };
  let i = 0;
  const iterator = {
    async next() {
      seen.nexts++;
      return i < items.length ? { value: items[i++], done: false } : { value: undefined, done: true };
    },
    async return() {
      seen.returns++;
      seen.finallies++;
      return { value: undefined, done: true };
    },
  };
  return { text: { [Symbol.asyncIterator]: () => iterator } as AsyncIterable<string>, seen };
}

describe("the caller's text iterator is closed once", () => {
  it('a non-string item: the call fails with RequestError (text) and the iterator is return()ed once', async () => {
    const { r } = await speechRouter();
    const { text, seen } = counted(['Hello there, how are you today?', 42, ' more']);
    let failure: unknown;
    try {
      for await (const _ of r.tts({ text, voice: 'v' })) {
        // audio not looked at
      }
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(RequestError);
    expect((failure as RequestError).field).toBe('text');
    expect(seen).toEqual({ nexts: 2, returns: 1, finallies: 1 });
  });

  it('a text that ends: never return()ed', async () => {
    const { r, inputs } = await speechRouter();
    const { text, seen } = counted(['Hello there.']);
    for await (const _ of r.tts({ text, voice: 'v' })) {
      // audio not looked at
    }
    expect(inputs).toEqual(['Hello there.']);
    expect(seen).toEqual({ nexts: 2, returns: 0, finallies: 0 });
  });

  it('a consumer that breaks out after the first chunk: return()ed once', async () => {
    const { r } = await speechRouter();
    const gate = { open: () => {} };
    let n = 0;
    const seen = { returns: 0 };
    const text: AsyncIterable<string> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          if (n++ === 0) return { value: 'Hello there.', done: false };
          await new Promise<void>((resolve) => {
            gate.open = resolve;
          });
          return { value: undefined, done: true };
        },
        return: async () => {
          seen.returns++;
          return { value: undefined, done: true };
        },
      }),
    };
    for await (const _ of r.tts({ text, voice: 'v' })) break;
    gate.open();
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen.returns).toBe(1);
  });
});
