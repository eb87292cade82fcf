import { Agent, type Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { TimeoutError } from '../../src/errors/index.js';
import { createHttpTransport } from '../../src/transport/http-transport.js';
import { parseSse } from '../../src/transport/sse.js';
import type { HttpTransport } from '../../src/transport/types.js';
import { FakeClock } from './fake-clock.js';
import { type Loopback, loopbackHooks, readAll, rejectionOf, startLoopback } from './loopback.js';
import { modes } from './modes.js';
import { manual, route } from './routes.js';

function timeoutFields(error: unknown) {
  if (!TimeoutError.isInstance(error)) return { notATimeout: String(error) };
  return {
    phase: error.phase,
    timeoutMs: error.timeoutMs,
    provider: error.provider,
    partialOutput: error.partialOutput,
  };
}

describe.each(modes)('deadlines over loopback ($name)', ({ name, create }) => {
  let loop: Loopback;
  let transport: HttpTransport;
  let clock: FakeClock;

  loopbackHooks(
    route,
    (started) => (loop = started),
    () => transport,
  );

  it('headers: TimeoutError phase headers, and the socket is closed', async () => {
    clock = new FakeClock();
    transport = create({ clock });
    const index = loop.requests.length;
    const pending = transport.request({
      provider: 'slow',
      method: 'GET',
      url: `${loop.origin}/hold`,
      deadlines: { headersMs: 500, totalMs: 5000 },
    });
    const seen = await loop.request(index);
    clock.advance(499);
    clock.advance(1);
    expect(timeoutFields(await rejectionOf(pending))).toEqual({
      phase: 'headers',
      timeoutMs: 500,
      provider: 'slow',
      partialOutput: false,
    });
    expect(await seen.socketClosed).toBeGreaterThan(0);
  });

  it('first-chunk: headers came but no body byte in time', async () => {
    clock = new FakeClock();
    transport = create({ clock });
    const response = await transport.request({
      provider: 'tts',
      method: 'GET',
      url: `${loop.origin}/headers-only`,
      deadlines: { headersMs: 300, firstByteMs: 800, idleMs: 100 },
    });
    // The idle deadline (100 ms) does not apply before the first byte: the first-chunk one does.
    clock.advance(799);
    const next = response.body[Symbol.asyncIterator]().next();
    clock.advance(1);
    expect(timeoutFields(await rejectionOf(next))).toEqual({
      phase: 'first-chunk',
      timeoutMs: 800,
      provider: 'tts',
      partialOutput: false,
    });
  });

  it('idle: fires from socket silence while the consumer is not reading, closing the socket first', async () => {
    clock = new FakeClock();
    transport = create({ clock });
    const index = loop.requests.length;
    const manualIndex = manual.length;
    const response = await transport.request({
      provider: 'llm',
      method: 'GET',
      url: `${loop.origin}/manual`,
      deadlines: { idleMs: 200 },
    });
    const seen = await loop.request(index);
    const res = manual[manualIndex]!;
    const body = response.body[Symbol.asyncIterator]();
    res.write('one');
    expect(new TextDecoder().decode((await body.next()).value)).toBe('one');
    res.write('two');
    expect(new TextDecoder().decode((await body.next()).value)).toBe('two');
    // The consumer is now slow: no next() call. Socket silence alone must trip the deadline.
    clock.advance(200);
    expect(await seen.socketClosed).toBeGreaterThan(0);
    expect(timeoutFields(await rejectionOf(body.next()))).toEqual({
      phase: 'idle',
      timeoutMs: 200,
      provider: 'llm',
      partialOutput: true,
    });
  });

  it('C05: keep-alive comments reset the idle timer but yield no event', async () => {
    clock = new FakeClock();
    transport = create({ clock });
    const manualIndex = manual.length;
    const response = await transport.request({
      provider: 'llm',
      method: 'GET',
      url: `${loop.origin}/manual`,
      deadlines: { idleMs: 100 },
    });
    const res = manual[manualIndex]!;
    let commentSeen: () => void = () => {};
    const events = parseSse(response.body, { onComment: () => commentSeen() });
    res.write('data: 1\n\n');
    expect((await events.next()).value).toEqual({ data: '1' });
    const second = events.next();
    clock.advance(80);
    await new Promise<void>((resolve) => {
      commentSeen = resolve;
      res.write(': ping\n\n');
    });
    // 160 ms since the event, 80 since the comment: not idle.
    clock.advance(80);
    res.write('data: 2\n\n');
    expect((await second).value).toEqual({ data: '2' });
    const third = events.next();
    clock.advance(100);
    expect(timeoutFields(await rejectionOf(third))).toEqual({
      phase: 'idle',
      timeoutMs: 100,
      provider: 'llm',
      partialOutput: true,
    });
  });

  it('total: fires even while bytes keep arriving', async () => {
    clock = new FakeClock();
    transport = create({ clock });
    const manualIndex = manual.length;
    const response = await transport.request({
      provider: 'p',
      method: 'GET',
      url: `${loop.origin}/manual`,
      deadlines: { idleMs: 100, totalMs: 250 },
    });
    const res = manual[manualIndex]!;
    const body = response.body[Symbol.asyncIterator]();
    for (const part of ['a', 'b', 'c']) {
      res.write(part);
      expect(new TextDecoder().decode((await body.next()).value)).toBe(part);
      clock.advance(90);
    }
    expect(timeoutFields(await rejectionOf(body.next()))).toEqual({
      phase: 'total',
      timeoutMs: 250,
      provider: 'p',
      partialOutput: true,
    });
  });

  it(`C25: the SDK's own deadline rules, not the HTTP client's default (${name})`, async () => {
    // Scaled: a 50 ms dispatcher headersTimeout stands in for undici's 300 s default. undici runs
    // it on a coarse timer (~0.5 s ticks), so it would fire within ~1 s: the server answers after
    // 1.1 s on the undici path to prove it is overridden.
    const dispatcher = new Agent({ headersTimeout: 50, bodyTimeout: 50 });
    const delay = name === 'undici' ? 1100 : 150;
    try {
      transport = name === 'undici' ? createHttpTransport({ dispatcher }) : create();
      // Run 1: headers after the delay, SDK budget 3000 ms: succeeds.
      const ok = await transport.request({
        provider: 'sm',
        method: 'GET',
        url: `${loop.origin}/delay?ms=${delay}`,
        deadlines: { headersMs: 3000 },
      });
      expect((await readAll(ok.body)).toString()).toBe('ok');
      // Run 2: no headers, SDK budget 300 ms: the SDK's TimeoutError (phase headers) at ~300 ms.
      const started = performance.now();
      const error = await rejectionOf(
        transport.request({
          provider: 'sm',
          method: 'GET',
          url: `${loop.origin}/hold`,
          deadlines: { headersMs: 300 },
        }),
      );
      expect(timeoutFields(error)).toEqual({
        phase: 'headers',
        timeoutMs: 300,
        provider: 'sm',
        partialOutput: false,
      });
      expect(performance.now() - started).toBeGreaterThanOrEqual(295);
    } finally {
      await dispatcher.destroy();
    }
  });
});

describe('C25 (undici): per-request timeouts override the dispatcher defaults', () => {
  it('C25: every dispatch sets headersTimeout and bodyTimeout to 0', async () => {
    const loop = await startLoopback(route);
    const agent = new Agent({ headersTimeout: 50, bodyTimeout: 50 });
    const seen: Dispatcher.DispatchOptions[] = [];
    const spy = {
      dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) {
        seen.push(options);
        return agent.dispatch(options, handler);
      },
    };
    const transport = createHttpTransport({ dispatcher: spy });
    try {
      const response = await transport.request({
        provider: 'p',
        method: 'GET',
        url: `${loop.origin}/chunks?x=1`,
      });
      expect((await readAll(response.body)).toString()).toBe('abbccc');
      expect(seen.map((o) => [o.method, o.path, o.headersTimeout, o.bodyTimeout])).toEqual([
        ['GET', '/chunks?x=1', 0, 0],
      ]);
    } finally {
      await transport.close();
      await agent.destroy();
      await loop.close();
    }
  });
});

describe('connect deadline (undici)', () => {
  /**
   * Runs `waiting` while the only connection of a one-connection Agent is busy with a stream,
   * so that what it sends cannot get a connection; moves the fake clock by `ms` and returns
   * what `waiting` rejected with.
   */
  async function withBusyConnection(
    ms: number,
    waiting: (transport: ReturnType<typeof createHttpTransport>, origin: string) => Promise<unknown>,
  ): Promise<unknown> {
    const loop = await startLoopback(route);
    const dispatcher = new Agent({ connections: 1 });
    const clock = new FakeClock();
    const transport = createHttpTransport({ dispatcher, clock });
    try {
      const busy = await transport.request({
        provider: 'p',
        method: 'GET',
        url: `${loop.origin}/first-then-hold`,
      });
      const pending = waiting(transport, loop.origin);
      clock.advance(ms);
      const error = await rejectionOf(pending);
      await busy.cancel();
      return error;
    } finally {
      await transport.close();
      await dispatcher.destroy();
      await loop.close();
    }
  }

  it('a request waiting for a connection past connectMs fails with phase connect', async () => {
    const error = await withBusyConnection(200, (transport, origin) =>
      transport.request({
        provider: 'p',
        method: 'GET',
        url: `${origin}/chunks`,
        deadlines: { connectMs: 200, headersMs: 1000 },
      }),
    );
    expect(timeoutFields(error)).toEqual({
      phase: 'connect',
      timeoutMs: 200,
      provider: 'p',
      partialOutput: false,
    });
  });

  it('preconnect (router.warmup) with connectMs gives up at the connect deadline, not after its 10 s total', async () => {
    const error = await withBusyConnection(2000, (transport, origin) =>
      transport.preconnect!(origin, { provider: 'p', connectMs: 2000 }),
    );
    expect(timeoutFields(error)).toEqual({
      phase: 'connect',
      timeoutMs: 2000,
      provider: 'p',
      partialOutput: false,
    });
  });

  it('on the fetch path a connect deadline is not enforced (the headers one covers that time)', async () => {
    const loop = await startLoopback(route);
    const clock = new FakeClock();
    const transport = modes[1]!.create({ clock });
    try {
      const index = loop.requests.length;
      const pending = transport.request({
        provider: 'p',
        method: 'GET',
        url: `${loop.origin}/hold`,
        deadlines: { connectMs: 100, headersMs: 1000 },
      });
      await loop.request(index);
      clock.advance(999);
      clock.advance(1);
      expect(timeoutFields(await rejectionOf(pending))).toEqual({
        phase: 'headers',
        timeoutMs: 1000,
        provider: 'p',
        partialOutput: false,
      });
    } finally {
      await transport.close();
      await loop.close();
    }
  });
});
