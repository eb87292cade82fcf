import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpTransport } from '../../src/transport/http-transport.js';
import type { HttpTransport } from '../../src/transport/types.js';
import type { UndiciWire } from '../../src/transport/undici-wire.js';
import { type Loopback, readAll, startLoopback } from './loopback.js';
import { route } from './routes.js';

const KEY = 'sk-query-0123456789abcdef';

/** The undici wire of a transport (private: what it keeps is the point of this test). */
const wireOf = (transport: HttpTransport): UndiciWire => (transport as unknown as { wire: UndiciWire }).wire;

describe('the undici wire keeps no URL (nor the key in its query) past close()', () => {
  let loop: Loopback;
  beforeAll(async () => {
    loop = await startLoopback(route);
  });
  afterAll(async () => {
    await loop.close();
  });

  it("parsed URLs are the transport's own and are forgotten by its close()", async () => {
    const a = createHttpTransport();
    const b = createHttpTransport();
    const url = `${loop.origin}/chunks?api_key=${KEY}`;
    const response = await a.request({ provider: 'p', method: 'GET', url });
    expect((await readAll(response.body)).toString()).toBe('abbccc');
    // A first request of b, so that its wire exists: it never sees a's URL.
    await readAll((await b.request({ provider: 'p', method: 'GET', url: `${loop.origin}/chunks` })).body);
    expect([...wireOf(a).parsedUrls.keys()]).toEqual([url]);
    expect(wireOf(a).parsedUrls.get(url)).toEqual({ origin: loop.origin, path: `/chunks?api_key=${KEY}` });
    expect([...wireOf(b).parsedUrls.keys()]).toEqual([`${loop.origin}/chunks`]);
    await a.close();
    expect(wireOf(a).parsedUrls.size).toBe(0);
    expect([...wireOf(b).parsedUrls.keys()]).toEqual([`${loop.origin}/chunks`]);
    await b.close();
    expect(wireOf(b).parsedUrls.size).toBe(0);
  });
});
