import { describe, expect, it } from 'vitest';
import { AbortError, ProtocolError } from '../../src/errors/index.js';
import { isTakeable, nextOf, type Takeable } from '../../src/internal/takeable.js';
import type { HttpTransport } from '../../src/transport/types.js';
import { readAllByTake } from '../helpers/read-by-take.js';
import { type Loopback, loopbackHooks } from './loopback.js';
import { modes } from './modes.js';
import { route } from './routes.js';

describe.each(modes)("a response body's synchronous side ($name)", ({ create }) => {
  let loop: Loopback;
  let transport: HttpTransport;

  loopbackHooks(
    route,
    (started) => (loop = started),
    () => transport,
  );

  it('gives every chunk in order by take(), waking the reader as they arrive, then the end', async () => {
    transport = create();
    const response = await transport.request({ provider: 'p', method: 'GET', url: `${loop.origin}/chunks` });
    const body = response.body[Symbol.asyncIterator]();
    expect(isTakeable(body)).toBe(true);
    expect(
      (await readAllByTake(body as Takeable<Uint8Array>)).map((c) => Buffer.from(c).toString()).join(''),
    ).toBe('abbccc');
    expect((body as Takeable<Uint8Array>).take()).toEqual({ value: undefined, done: true });
  });

  it('throws a truncated body as a ProtocolError from take(), after the bytes before the cut', async () => {
    transport = create();
    const response = await transport.request({
      provider: 'p',
      method: 'POST',
      url: `${loop.origin}/truncated`,
    });
    const body = response.body[Symbol.asyncIterator]() as Takeable<Uint8Array>;
    let bytes = 0;
    const error = await new Promise<unknown>((resolve) => {
      const run = (): void => {
        for (;;) {
          let r: IteratorResult<Uint8Array> | undefined;
          try {
            r = body.take();
          } catch (e) {
            resolve(e);
            return;
          }
          if (r === undefined) {
            body.onReadable(run);
            return;
          }
          if (r.done) {
            resolve(undefined);
            return;
          }
          bytes += r.value.byteLength;
        }
      };
      run();
    });
    expect(bytes).toBe(30_000);
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect((error as ProtocolError).partialOutput).toBe(true);
  });

  it('wakes a reader waiting on a body that holds, with AbortError, when the request is aborted', async () => {
    transport = create();
    const controller = new AbortController();
    const response = await transport.request({
      provider: 'p',
      method: 'GET',
      url: `${loop.origin}/first-then-hold`,
      signal: controller.signal,
    });
    const body = response.body[Symbol.asyncIterator]() as Takeable<Uint8Array>;
    const first = await nextOf(body);
    expect(Buffer.from(first.value as Uint8Array).toString()).toBe('data: {"n":0}\n\n');
    const waiting = nextOf(body);
    controller.abort();
    const error = await waiting.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(AbortError.isInstance(error)).toBe(true);
  });
});
