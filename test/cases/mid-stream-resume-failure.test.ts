/**
 * A stream cut after output, which the route tries to continue on another provider (chat
 * `midStream: 'continue'`), where that provider fails too, before any output: the
 * MidStreamError the caller gets carries that failure as well, not only the event. Its
 * `attempts` list every attempt of the call with its error (the cut one, then each provider
 * tried to continue it), its message names both failures, and no configured secret reaches any
 * of it. The servers speak OpenAI's chat SSE on their own (node:http on loopback, written here);
 * the cut waits until the caller has the reply's first text.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChatEvent, createRouter, MidStreamError, ProviderError, type Router } from '../../src/index.js';
import { chatWireServer, openAiChunk, openAiSse, writeFlushed } from '../helpers/chat-wire.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const server = (handler: (res: ServerResponse) => void | Promise<void>) => chatWireServer(handler, closers);
const chunk = (delta: Record<string, unknown>) => openAiChunk('chatcmpl-cut', delta);

/** Built from parts so that no key-shaped literal is in the tree. */
const KEY = `${'sk-'}proj-midSECRETkeyABCDEFGHIJKLMNOP0123`;
const LEAD = 'Your table for two ';

function router(a: string, b: string): Router {
  const r = createRouter({
    providers: {
      a: { kind: 'openai-compatible', baseUrl: a, apiKey: KEY, chat: { models: { fast: 'm' } } },
      b: {
        kind: 'openai-compatible',
        baseUrl: b,
        apiKey: KEY,
        chat: { models: { fast: 'm' }, continueFinalMessage: true },
      },
    },
    routes: {
      chat: {
        providers: ['a', 'b'],
        strategy: 'priority',
        midStream: 'continue',
        firstChunkTimeoutMs: false,
      },
    },
  });
  closers.push(() => r.close());
  return r;
}

describe('a mid-stream failure whose continuation fails too', () => {
  it("routing: the MidStreamError carries the continuation's failure (attempts, message), redacted", async () => {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    // a: a few deltas, then the connection drops (no end marker).
    const a = await server(async (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      await writeFlushed(
        res,
        openAiSse([chunk({ role: 'assistant', content: '' }), chunk({ content: LEAD })]),
      );
      await opened;
      res.socket?.destroy();
    });
    // b: 500, its body quoting the key it was sent.
    const b = await server((res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: {
            message: `engine crashed serving key ${KEY}`,
            type: 'server_error',
            param: null,
            code: null,
          },
        }),
      );
    });
    const r = router(a.url, b.url);
    const errors: Array<[string, boolean]> = [];
    r.on('error', (e) => errors.push([e.provider, e.partialOutput]));
    const stream = r.chat({ model: 'fast', messages: [{ role: 'user', content: 'Book a table for two.' }] });
    const items: ChatEvent[] = [];
    let error: unknown;
    try {
      for await (const event of stream) {
        items.push(event);
        if (event.type === 'text-delta') open();
      }
    } catch (e) {
      error = e;
    }

    expect(items.map((e) => (e.type === 'text-delta' ? e.text : e.type))).toEqual([LEAD]);
    expect(b.bodies.length).toBe(1);
    expect(errors).toEqual([
      ['a', true],
      ['b', false],
    ]);
    expect(error).toBeInstanceOf(MidStreamError);
    const mid = error as MidStreamError;
    expect([mid.provider, mid.partialText, mid.partialOutput]).toEqual(['a', LEAD, true]);
    const cut = mid.cause as Error;
    expect(mid.attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'failed'],
      ['b', 'failed'],
    ]);
    expect(mid.attempts[0]!.error).toBe(cut);
    const resumed = mid.attempts[1]!.error as ProviderError;
    expect(resumed).toBeInstanceOf(ProviderError);
    expect([resumed.provider, resumed.status]).toEqual(['b', 500]);
    expect(resumed.message).toBe("Provider 'b' answered HTTP 500: engine crashed serving key [redacted]");
    expect(mid.message).toBe(
      `Provider 'a' failed after output had started: ${cut.message}; continuing on 'b' failed: Provider 'b' answered HTTP 500: engine crashed serving key [redacted]`,
    );
    const all = [
      mid.message,
      mid.stack,
      JSON.stringify(mid),
      resumed.message,
      resumed.stack,
      JSON.stringify(resumed),
    ];
    for (const text of all) expect(text).not.toContain(KEY.slice(0, 16));
    await expect(stream.result).rejects.toBe(error);
  });
});
