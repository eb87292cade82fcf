/**
 * A provider tried but never measured: its attempts all ended without a first chunk and without
 * a failure (the caller aborted, or it lost a hedge), so `router.stats()` showed it only while an
 * attempt ran and then dropped it, although the stalling provider is the one an operator wants
 * to see. It now stays, with `attempts` counting every attempt started. The server speaks HTTP
 * on its own (node:http on loopback) and never answers.
 */
import { describe, expect, it } from 'vitest';
import { AbortError } from '../../src/index.js';
import { drain, httpServer, router } from './wire/servers.js';

describe('router.stats() keeps a provider whose attempts ended unmeasured', () => {
  it('two calls aborted before the first chunk: the provider stays, attempts 2, samples 0, errors 0', async () => {
    // Reads each request and never answers.
    const server = await httpServer((req) => {
      req.resume();
    });
    const r = router({
      providers: {
        a: {
          kind: 'openai-compatible',
          baseUrl: `${server.url}/v1`,
          apiKey: 'test-key',
          tts: { voices: { agent: 'v' }, responseFormat: 'pcm' },
        },
      },
      routes: { tts: { providers: ['a'], strategy: 'priority' } },
    });
    let controller = new AbortController();
    r.on('attempt', () => controller.abort());
    for (let call = 1; call <= 2; call++) {
      controller = new AbortController();
      const { error } = await drain(
        r.tts({
          text: 'Hello there.',
          voice: 'agent',
          format: { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 },
          signal: controller.signal,
        }),
      );
      expect(error).toBeInstanceOf(AbortError);
    }
    const [a, ...others] = r.stats().providers;
    expect(others).toEqual([]);
    expect(a).toMatchObject({
      provider: 'a',
      capability: 'tts',
      attempts: 2,
      samples: 0,
      errors: 0,
      inFlight: 0,
    });
    await r.close();
  });
});
