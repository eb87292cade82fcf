import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { AbortError } from '../../src/errors/index.js';
import { parseSse } from '../../src/transport/sse.js';
import type { HttpTransport } from '../../src/transport/types.js';
import { closesWithin, type Loopback, loopbackHooks, readAll, rejectionOf } from './loopback.js';
import { modes } from './modes.js';
import { route } from './routes.js';

describe.each(modes)('cancellation over loopback ($name)', ({ create }) => {
  let loop: Loopback;
  let transport: HttpTransport;

  loopbackHooks(
    route,
    (started) => (loop = started),
    () => transport,
  );

  it('C27: aborting after the first event closes the socket within 100 ms and rejects with AbortError', async () => {
    transport = create();
    const controller = new AbortController();
    const index = loop.requests.length;
    const response = await transport.request({
      provider: 'p',
      method: 'GET',
      url: `${loop.origin}/ticker`,
      signal: controller.signal,
    });
    const seen = await loop.request(index);
    const events: string[] = [];
    let closedInTime: Promise<boolean> | undefined;
    const error = await (async () => {
      for await (const event of parseSse(response.body)) {
        events.push(event.data);
        closedInTime = closesWithin(seen.socketClosed, 100);
        controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(events).toEqual(['{"n":0}']);
    expect(AbortError.isInstance(error)).toBe(true);
    expect((error as AbortError).name).toBe('AbortError');
    expect(await closedInTime).toBe(true);
  });

  it('C27: aborting before the headers closes the socket within 100 ms and rejects with AbortError', async () => {
    transport = create();
    const controller = new AbortController();
    const index = loop.requests.length;
    const pending = transport.request({
      provider: 'p',
      method: 'GET',
      url: `${loop.origin}/hold`,
      signal: controller.signal,
    });
    const seen = await loop.request(index);
    const closedInTime = closesWithin(seen.socketClosed, 100);
    controller.abort();
    expect(AbortError.isInstance(await rejectionOf(pending))).toBe(true);
    expect(await closedInTime).toBe(true);
  });

  it('C27: breaking out of for-await (return()) closes the socket within 100 ms', async () => {
    transport = create();
    const index = loop.requests.length;
    const response = await transport.request({ provider: 'p', method: 'GET', url: `${loop.origin}/ticker` });
    const seen = await loop.request(index);
    const events: string[] = [];
    let closedInTime: Promise<boolean> | undefined;
    for await (const event of parseSse(response.body)) {
      events.push(event.data);
      closedInTime = closesWithin(seen.socketClosed, 100);
      break;
    }
    expect(events).toEqual(['{"n":0}']);
    expect(await closedInTime).toBe(true);
    // The body then reports a normal end, and nothing more.
    expect(await response.body[Symbol.asyncIterator]().next()).toEqual({ value: undefined, done: true });
  });

  it('cancel() closes the socket, and later reads reject with AbortError', async () => {
    transport = create();
    const index = loop.requests.length;
    const response = await transport.request({ provider: 'p', method: 'GET', url: `${loop.origin}/ticker` });
    const seen = await loop.request(index);
    const body = response.body[Symbol.asyncIterator]();
    await body.next();
    const closedInTime = closesWithin(seen.socketClosed, 100);
    await response.cancel();
    await response.cancel();
    expect(AbortError.isInstance(await rejectionOf(body.next()))).toBe(true);
    expect(await closedInTime).toBe(true);
  });

  it('C22: one session signal over 200 consumed and 200 abandoned calls leaves no listener behind', async () => {
    transport = create();
    const session = new AbortController();
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const baseline = getEventListeners(session.signal, 'abort').length;
      const counts = new Set<number>();
      for (let i = 0; i < 200; i++) {
        const response = await transport.request({
          provider: 'p',
          method: 'GET',
          url: `${loop.origin}/chunks`,
          signal: session.signal,
        });
        expect(getEventListeners(session.signal, 'abort').length).toBe(baseline + 1);
        expect((await readAll(response.body)).toString()).toBe('abbccc');
        counts.add(getEventListeners(session.signal, 'abort').length);
      }
      for (let i = 0; i < 200; i++) {
        const response = await transport.request({
          provider: 'p',
          method: 'GET',
          url: `${loop.origin}/first-then-hold`,
          signal: session.signal,
        });
        for await (const _ of response.body) break;
        counts.add(getEventListeners(session.signal, 'abort').length);
      }
      expect([...counts]).toEqual([baseline]);

      // The session signal still cancels a call in flight.
      const response = await transport.request({
        provider: 'p',
        method: 'GET',
        url: `${loop.origin}/first-then-hold`,
        signal: session.signal,
      });
      const body = response.body[Symbol.asyncIterator]();
      await body.next();
      session.abort();
      expect(AbortError.isInstance(await rejectionOf(body.next()))).toBe(true);
      expect(getEventListeners(session.signal, 'abort').length).toBe(baseline);
      // Let a pending warning reach the listener before checking.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});
