/**
 * A router given `fetch` (msw's interceptor, a proxy) but no `WebSocket` opened WebSocket
 * providers' connections with undici's own WebSocket without a word: on Node 20, which has no
 * global WebSocket for msw to intercept, a test reached the real provider with its test key and
 * still passed. The first such connection now logs a warning naming the provider (the router's
 * logger, else process.emitWarning), once per router; none when `WebSocket` is given or `fetch`
 * is not. The provider here is a Deepgram STT provider on a closed loopback port.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRouter, type Router, type RouterOptions } from '../../src/index.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000 } as const;
const MESSAGE =
  "A WebSocket connection does not go through the router's `fetch` option: it opens with undici's own WebSocket (pass the `WebSocket` option too, e.g. globalThis.WebSocket, for an interceptor such as msw to see it)";

/** A Deepgram STT provider on a closed loopback port: every connection fails. */
const CONFIG = {
  providers: { dg: { kind: 'deepgram' as const, baseUrl: 'http://127.0.0.1:1', apiKey: 'k', stt: {} } },
  routes: { stt: { providers: ['dg'] } },
};

/** One stt() call, read to its end: it fails (the port is closed). */
async function failingCall(router: Router): Promise<void> {
  const audio = (async function* () {
    yield new Uint8Array(3200);
  })();
  await expect(
    (async () => {
      for await (const _ of router.stt({ audio, format: FORMAT })) {
        // read to the end
      }
    })(),
  ).rejects.toThrow();
}

describe('websocket bypasses fetch', () => {
  let router: Router | undefined;
  afterEach(async () => {
    await router?.close();
    router = undefined;
  });

  /** Two failing stt() calls; the warnings logged. */
  async function twoCalls(options: RouterOptions): Promise<unknown[][]> {
    const warnings: unknown[][] = [];
    router = createRouter(CONFIG, {
      logger: { warn: (...args: unknown[]) => warnings.push(args) },
      ...options,
    });
    await failingCall(router);
    await failingCall(router);
    return warnings;
  }

  it('fetch without WebSocket: one warning naming the provider, at the first connection', async () => {
    expect(await twoCalls({ fetch: globalThis.fetch })).toEqual([[MESSAGE, { provider: 'dg' }]]);
  });

  it('no warning without fetch, nor with WebSocket given too', async () => {
    expect(await twoCalls({})).toEqual([]);
    await router?.close();
    const Standard = class {} as unknown as typeof globalThis.WebSocket;
    router = undefined;
    const warnings: unknown[][] = [];
    router = createRouter(CONFIG, {
      fetch: globalThis.fetch,
      WebSocket: Standard,
      logger: { warn: (...a: unknown[]) => warnings.push(a) },
    });
    expect(warnings).toEqual([]);
  });

  it('without a logger: process.emitWarning with its code', async () => {
    const emitted: unknown[][] = [];
    const spy = vi.spyOn(process, 'emitWarning').mockImplementation((...args: unknown[]) => {
      emitted.push(args);
    });
    try {
      router = createRouter(CONFIG, { fetch: globalThis.fetch });
      await failingCall(router);
    } finally {
      spy.mockRestore();
    }
    expect(emitted).toEqual([[`${MESSAGE}; provider 'dg'`, { code: 'VOXROUTE_WEBSOCKET_BYPASSES_FETCH' }]]);
  });
});
