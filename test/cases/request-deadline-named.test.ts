import { describe, expect, it } from 'vitest';
import { AllProvidersFailedError, MidStreamError, TimeoutError } from '../../src/index.js';
import { FakeClock } from '../transport/fake-clock.js';
import { chatChunk, drain, httpServer, router, sseFrames } from './wire/servers.js';

/**
 * Kind: a TimeoutError says which option's deadline passed. `setting` names the public option
 * (`deadlineMs` of the request, the route's `totalTimeoutMs`, `firstChunkTimeoutMs`,
 * `idleTimeoutMs`) and the message names it too, so that a reader knows what to change: a
 * per-call `deadlineMs` is not reported as the route's `totalTimeoutMs`.
 *
 * The provider is a loopback server speaking OpenAI's chat SSE on its own; it takes the request
 * and sends nothing (or one delta, then nothing). The router's clock is a fake one, moved once
 * the server has the request (or the caller has the first delta).
 */

async function silentRouter(route: Record<string, unknown>, firstDelta: boolean) {
  const wire = await httpServer((req, res) => {
    req.resume();
    if (!firstDelta) return;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(sseFrames([chatChunk({ content: 'Hel' })]));
  });
  const clock = new FakeClock();
  const r = router(
    {
      providers: {
        a: { kind: 'openai-compatible', baseUrl: `${wire.url}/v1`, chat: { models: { fast: 'm' } } },
      },
      routes: { chat: { providers: ['a'], ...route } },
    },
    { clock },
  );
  return { wire, clock, r };
}

const messages = [{ role: 'user' as const, content: 'hi' }];

describe('a TimeoutError names the option whose deadline passed', () => {
  it('the request’s deadlineMs: setting deadlineMs, named in the message', async () => {
    const { wire, clock, r } = await silentRouter({ totalTimeoutMs: 5_000 }, false);
    const done = drain(r.chat({ model: 'fast', messages, deadlineMs: 300 }));
    await wire.request(1);
    clock.advance(300);
    const { items, error } = await done;
    expect(items).toEqual([]);
    expect(error).toBeInstanceOf(TimeoutError);
    const timeout = error as TimeoutError;
    expect([timeout.phase, timeout.timeoutMs, timeout.setting]).toEqual(['total', 300, 'deadlineMs']);
    expect(timeout.message).toBe('No end of stream within 300 ms (deadlineMs)');
  });

  it('the route’s totalTimeoutMs: setting totalTimeoutMs', async () => {
    const { wire, clock, r } = await silentRouter({ totalTimeoutMs: 400 }, false);
    const done = drain(r.chat({ model: 'fast', messages }));
    await wire.request(1);
    clock.advance(400);
    const timeout = (await done).error as TimeoutError;
    expect([timeout.phase, timeout.timeoutMs, timeout.setting]).toEqual(['total', 400, 'totalTimeoutMs']);
    expect(timeout.message).toBe('No end of stream within 400 ms (totalTimeoutMs)');
  });

  it('the deadlineMs of a call that had output: still named deadlineMs, partialOutput true', async () => {
    const { clock, r } = await silentRouter({}, true);
    const stream = r.chat({ model: 'fast', messages, deadlineMs: 700 });
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ type: 'text-delta', text: 'Hel' });
    const next = iterator.next().then(
      () => undefined,
      (e: unknown) => e,
    );
    clock.advance(700);
    const timeout = (await next) as TimeoutError;
    expect(timeout).toBeInstanceOf(TimeoutError);
    expect([timeout.phase, timeout.timeoutMs, timeout.setting, timeout.partialOutput]).toEqual([
      'total',
      700,
      'deadlineMs',
      true,
    ]);
    expect(timeout.message).toBe('No end of stream within 700 ms (deadlineMs)');
  });

  it('firstChunkTimeoutMs: setting firstChunkTimeoutMs, with the provider in the message', async () => {
    const { wire, clock, r } = await silentRouter({ firstChunkTimeoutMs: 1_000 }, false);
    const done = drain(r.chat({ model: 'fast', messages }));
    await wire.request(1);
    clock.advance(1_000);
    const { error } = await done;
    expect(error).toBeInstanceOf(AllProvidersFailedError);
    const timeout = (error as AllProvidersFailedError).attempts[0]!.error as TimeoutError;
    expect([timeout.phase, timeout.timeoutMs, timeout.setting]).toEqual([
      'first-chunk',
      1_000,
      'firstChunkTimeoutMs',
    ]);
    expect(timeout.message).toBe("No first chunk from provider 'a' within 1000 ms (firstChunkTimeoutMs)");
  });

  it('idleTimeoutMs: setting idleTimeoutMs, the message says what it bounds', async () => {
    const { clock, r } = await silentRouter({ idleTimeoutMs: 1_000 }, true);
    const stream = r.chat({ model: 'fast', messages });
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ type: 'text-delta', text: 'Hel' });
    const next = iterator.next().then(
      () => undefined,
      (e: unknown) => e,
    );
    clock.advance(1_000);
    const error = await next;
    expect(error).toBeInstanceOf(MidStreamError);
    const timeout = (error as MidStreamError).cause as TimeoutError;
    expect([timeout.phase, timeout.timeoutMs, timeout.setting]).toEqual(['idle', 1_000, 'idleTimeoutMs']);
    expect(timeout.message).toBe(
      "No chunk (stream stalled) from provider 'a' within 1000 ms (idleTimeoutMs, the longest gap between chunks)",
    );
  });

  it('built by hand: the setting given wins over the phase’s default; headers names none', () => {
    expect(new TimeoutError('total', 5, { setting: 'deadlineMs' }).setting).toBe('deadlineMs');
    expect(new TimeoutError('connect', 5).setting).toBe('connectTimeoutMs');
    const headers = new TimeoutError('headers', 5, { provider: 'a' });
    expect(headers.setting).toBeUndefined();
    expect(headers.message).toBe("No response headers from provider 'a' within 5 ms");
  });
});
