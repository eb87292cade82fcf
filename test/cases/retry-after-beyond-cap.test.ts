/**
 * A Retry-After beyond any sane wait: a 400-digit `Retry-After` gave `retryAfterMs: Infinity`
 * (JSON `null`), `retry-after-ms: 1e20` gave 1e20, an HTTP-date in 2099 against a garbage `Date`
 * gave 73 years. The breaker caps its cooldown at 600 s, but a caller doing
 * `setTimeout(retry, error.retryAfterMs)` retried at once (Node clamps an overflow to 1 ms).
 * `ProviderError.retryAfterMs` is now at most 600 000 ms, the breaker's cap. Servers speak the
 * wire on their own (node:http on loopback).
 */
import { describe, expect, it } from 'vitest';
import { AllProvidersFailedError, ProviderError } from '../../src/index.js';
import { drain, httpServer, router } from './wire/servers.js';

const cases: Array<[string, Record<string, string>, number | undefined]> = [
  ['a 400-digit Retry-After', { 'retry-after': '1'.repeat(400) }, 600_000],
  ['retry-after-ms: 1e20', { 'retry-after-ms': '1e20' }, 600_000],
  ['Retry-After: 99999999999', { 'retry-after': '99999999999' }, 600_000],
  [
    'an HTTP-date in 2099 with a garbage Date',
    { 'retry-after': 'Thu, 01 Jan 2099 00:00:00 GMT', date: 'garbage' },
    600_000,
  ],
  ['Retry-After: 601 (just above the cap)', { 'retry-after': '601' }, 600_000],
  // Sane values are left as they are.
  ['Retry-After: 600 (the cap)', { 'retry-after': '600' }, 600_000],
  ['Retry-After: 120', { 'retry-after': '120' }, 120_000],
  ['retry-after-ms: 1500', { 'retry-after-ms': '1500' }, 1500],
];

describe('ProviderError.retryAfterMs is finite and at most 600 000 ms', () => {
  for (const [name, headers, expected] of cases)
    it(name, async () => {
      const server = await httpServer((req, res) => {
        req.resume();
        res.writeHead(429, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify({ error: { message: 'slow down', type: 'rate_limit_error' } }));
      });
      const r = router({
        providers: {
          a: {
            kind: 'openai-compatible',
            baseUrl: `${server.url}/v1`,
            apiKey: 'test-key-a',
            chat: { models: { fast: 'm' } },
          },
        },
        routes: { chat: { providers: ['a'], strategy: 'priority' } },
      });
      const { error } = await drain(r.chat({ model: 'fast', messages: [{ role: 'user', content: 'x' }] }));
      expect(error).toBeInstanceOf(AllProvidersFailedError);
      const cause = (error as AllProvidersFailedError).attempts[0]!.error as ProviderError;
      expect(cause).toBeInstanceOf(ProviderError);
      expect([cause.status, cause.retryable, cause.retryAfterMs]).toEqual([429, true, expected]);
      expect(JSON.parse(JSON.stringify(cause)).retryAfterMs).toBe(expected);
    });

  it('set directly: Infinity is the cap; NaN and a negative wait are none', () => {
    const of = (retryAfterMs: number) => new ProviderError('x', { provider: 'a', retryAfterMs }).retryAfterMs;
    expect([of(Number.POSITIVE_INFINITY), of(1e20), of(599_999), of(0), of(Number.NaN), of(-1)]).toEqual([
      600_000,
      600_000,
      599_999,
      0,
      undefined,
      undefined,
    ]);
  });
});
