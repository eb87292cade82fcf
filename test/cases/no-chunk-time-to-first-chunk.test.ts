/**
 * `RouteResult.timeToFirstChunkMs` of a call that delivered no chunk: there is no first chunk,
 * and the field (a number) is then the call's `durationMs`, the time that passed without one,
 * for tts, chat and stt alike, and no attempt has a time to first chunk. Input with nothing to
 * speak or hear used to give 0 whatever the wait for that input lasted. An aborted call has no
 * RouteResult: `result` rejects with AbortError. The server speaks OpenAI's wire on its own
 * (node:http on loopback) and holds every answer until the test ends; the router runs on a
 * manual clock.
 */
import { describe, expect, it } from 'vitest';
import { AbortError, type RoutedStream, type RouteResult } from '../../src/index.js';
import { ManualClock } from '../routing/helpers.js';
import { httpServer, router } from './wire/servers.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000 } as const;
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A router over a server that takes every request and never answers, on a manual clock. */
async function silentProvider() {
  const server = await httpServer((req) => {
    req.resume();
  });
  const clock = new ManualClock();
  const routes = { providers: ['a'], firstChunkTimeoutMs: false } as const;
  const r = router(
    {
      providers: {
        a: {
          kind: 'openai-compatible',
          baseUrl: server.url,
          chat: { models: { fast: 'm' } },
          tts: { voices: { agent: 'v' } },
          stt: { model: 'w', streaming: false },
        },
      },
      routes: { tts: routes, stt: routes, chat: routes },
    },
    { clock },
  );
  return { server, clock, r };
}

/** One 100 ms chunk of caller audio, then its end. */
async function* speech() {
  yield new Uint8Array(3200);
}

type Call = (
  r: Awaited<ReturnType<typeof silentProvider>>['r'],
  signal?: AbortSignal,
) => RoutedStream<unknown>;

const CALLS: Record<string, Call> = {
  tts: (r, signal) => r.tts({ text: 'Your table is booked.', voice: 'agent', signal }),
  chat: (r, signal) => r.chat({ model: 'fast', messages: [{ role: 'user', content: 'Hi' }], signal }),
  stt: (r, signal) => r.stt({ audio: speech(), format: FORMAT, signal }),
};

/** The parts of a result this file is about. */
function timing(result: RouteResult) {
  return {
    timeToFirstChunkMs: result.timeToFirstChunkMs,
    durationMs: result.durationMs,
    attempts: result.attempts.map((a) => [a.provider, a.outcome, a.timeToFirstChunkMs]),
  };
}

describe('a call that delivered no chunk', () => {
  it.each(Object.keys(CALLS))(
    '%s: a caller that stops waiting for the first chunk after 50 ms: 50 ms, its duration',
    async (capability) => {
      const { server, clock, r } = await silentProvider();
      const stream = CALLS[capability]!(r);
      const iterator = stream[Symbol.asyncIterator]();
      const first = iterator.next();
      await server.request(1);
      clock.advance(50);
      await iterator.return?.();
      expect(await first).toEqual({ done: true, value: undefined });
      expect(timing(await stream.result)).toEqual({
        timeToFirstChunkMs: 50,
        durationMs: 50,
        attempts: [['a', 'aborted', undefined]],
      });
    },
  );

  it.each(Object.keys(CALLS))(
    '%s: aborted before the first chunk: result rejects with AbortError',
    async (capability) => {
      const { server, clock, r } = await silentProvider();
      const abort = new AbortController();
      const stream = CALLS[capability]!(r, abort.signal);
      const first = stream[Symbol.asyncIterator]().next();
      await server.request(1);
      clock.advance(50);
      abort.abort();
      await expect(first).rejects.toBeInstanceOf(AbortError);
      await expect(stream.result).rejects.toBeInstanceOf(AbortError);
    },
  );

  it('tts: streamed text that ends after 30 ms with nothing to speak: 30 ms, its duration', async () => {
    const { server, clock, r } = await silentProvider();
    let end!: () => void;
    const ended = new Promise<void>((resolve) => {
      end = resolve;
    });
    async function* text() {
      await ended;
      yield '  ';
    }
    const stream = r.tts({ text: text(), voice: 'agent' });
    const items = (async () => {
      const out: unknown[] = [];
      for await (const chunk of stream) out.push(chunk);
      return out;
    })();
    await tick();
    clock.advance(30);
    end();
    expect(await items).toEqual([]);
    expect(timing(await stream.result)).toEqual({ timeToFirstChunkMs: 30, durationMs: 30, attempts: [] });
    expect(server.hits).toBe(0);
  });

  it('stt: caller audio that ends after 30 ms with no whole sample: 30 ms, its duration', async () => {
    const { server, clock, r } = await silentProvider();
    let end!: () => void;
    const ended = new Promise<void>((resolve) => {
      end = resolve;
    });
    async function* audio() {
      await ended;
      yield new Uint8Array(0);
    }
    const stream = r.stt({ audio: audio(), format: FORMAT });
    const items = (async () => {
      const out: unknown[] = [];
      for await (const event of stream) out.push(event);
      return out;
    })();
    await tick();
    clock.advance(30);
    end();
    expect(await items).toEqual([]);
    expect(timing(await stream.result)).toEqual({ timeToFirstChunkMs: 30, durationMs: 30, attempts: [] });
    expect(server.hits).toBe(0);
  });

  it('chat, tts and stt: return() before the first next(): 0 ms, its duration', async () => {
    const { server, r } = await silentProvider();
    for (const call of Object.values(CALLS)) {
      const stream = call(r);
      await stream[Symbol.asyncIterator]().return?.();
      expect(timing(await stream.result)).toEqual({ timeToFirstChunkMs: 0, durationMs: 0, attempts: [] });
    }
    expect(server.hits).toBe(0);
  });
});
