/**
 * A logger is an observer: one whose methods throw (or return a rejected promise) never changes
 * a call's outcome nor a provider's health, as a throwing `router.on()` listener does not. A
 * `logger` that is not a logger (no `warn` method, not an object, a `debug` that is not a
 * function) is a TypeError naming `logger` at createRouter. The TTS server here speaks the
 * wire on its own: it answers with 2400 samples and a stray byte, which makes voxroute warn.
 */
import { describe, expect, it } from 'vitest';
import { createRouter, type Logger, type RouterConfig } from '../../src/index.js';
import { answerPcm, concat, httpServer, pcmSignal, router } from './wire/servers.js';

const AUDIO = pcmSignal(2400, 24_000, 3);

async function config(): Promise<RouterConfig> {
  const wire = await httpServer((_req, res) => answerPcm(res, Buffer.concat([AUDIO, Buffer.from([7])])));
  return {
    providers: {
      gpu: { kind: 'openai-compatible', baseUrl: `${wire.url}/v1`, tts: { voices: { agent: 'v' } } },
    },
    routes: { tts: { providers: ['gpu'] } },
  };
}

describe('a logger never changes a call or a provider', () => {
  const throwing: Array<[string, Logger]> = [
    [
      'warn throws',
      {
        warn() {
          throw new Error('log transport down');
        },
      },
    ],
    [
      'warn returns a rejected promise',
      { warn: () => Promise.reject(new Error('log transport down')) as never },
    ],
  ];
  for (const [name, logger] of throwing) {
    it(`${name}: the call delivers all its whole samples; the provider is charged nothing`, async () => {
      const r = router(await config(), { logger });
      const chunks: Uint8Array[] = [];
      for await (const chunk of r.tts({ text: 'Hello there.', voice: 'agent' })) chunks.push(chunk.data);
      expect(concat(chunks)).toEqual(AUDIO);
      expect(r.stats().providers.map((s) => [s.provider, s.errors, s.samples, s.breaker])).toEqual([
        ['gpu', 0, 1, 'closed'],
      ]);
    });
  }

  it('a throwing listener is reported to a throwing logger: neither changes the call', async () => {
    const warned: string[] = [];
    const r = router(await config(), {
      logger: {
        warn(message) {
          warned.push(message);
          throw new Error('log transport down');
        },
      },
    });
    r.on('attempt', () => {
      throw new Error('listener bug');
    });
    const chunks: Uint8Array[] = [];
    for await (const chunk of r.tts({ text: 'Hello there.', voice: 'agent' })) chunks.push(chunk.data);
    expect(concat(chunks)).toEqual(AUDIO);
    expect(warned).toEqual([
      'A router event listener threw',
      'Dropped a stray partial sample at the end of a provider stream',
    ]);
  });

  it('a logger with warn only is accepted and called with the message and its attributes', async () => {
    const calls: unknown[][] = [];
    const r = router(await config(), { logger: { warn: (...args: unknown[]) => void calls.push(args) } });
    for await (const _ of r.tts({ text: 'Hello there.', voice: 'agent' })) {
      // drain
    }
    expect(calls).toHaveLength(1);
    expect(calls[0]![0]).toBe('Dropped a stray partial sample at the end of a provider stream');
    expect(calls[0]).toHaveLength(2);
  });

  const invalid: Array<[string, unknown, string]> = [
    ['{}', {}, 'an object without warn'],
    ['5', 5, 'number'],
    ['null', null, 'null'],
    ["{ warn: 'x' }", { warn: 'x' }, 'an object whose warn is string'],
    ['a debug that is not a function', { warn() {}, debug: 3 }, 'an object whose warn is function'],
  ];
  for (const [name, logger, got] of invalid) {
    it(`logger ${name}: TypeError naming logger at createRouter`, async () => {
      const c = await config();
      expect(() => createRouter(c, { logger: logger as Logger })).toThrow(
        new TypeError(
          `createRouter: options.logger must be an object with a warn(message, attributes) method (debug optional), got ${got}`,
        ),
      );
    });
  }
});
