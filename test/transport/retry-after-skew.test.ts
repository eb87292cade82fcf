import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/errors/index.js';
import { createHttpTransport } from '../../src/transport/http-transport.js';
import { parseRetryAfter } from '../../src/transport/retry-after.js';
import type { HttpTransport } from '../../src/transport/types.js';
import { type Loopback, rejectionOf, startLoopback } from './loopback.js';

describe('Retry-After skew: an HTTP-date is read against the response’s own Date header', () => {
  const local = Date.parse('2026-01-01T12:00:00Z');

  it('uses the server clock when the response has a Date header (two hours behind here)', () => {
    const headers = {
      date: 'Thu, 01 Jan 2026 10:00:00 GMT',
      'retry-after': 'Thu, 01 Jan 2026 10:00:30 GMT',
    };
    expect(parseRetryAfter(headers, local)).toBe(30_000);
  });

  it('uses the server clock when it is ahead too (a date that is past here still means a wait)', () => {
    const headers = {
      date: 'Thu, 01 Jan 2026 13:00:00 GMT',
      'retry-after': 'Thu, 01 Jan 2026 13:00:05 GMT',
    };
    expect(parseRetryAfter(headers, local)).toBe(5_000);
  });

  it('falls back to the local clock without a Date header, or with one that does not parse', () => {
    const retry = { 'retry-after': 'Thu, 01 Jan 2026 12:00:07 GMT' };
    expect(parseRetryAfter(retry, local)).toBe(7_000);
    expect(parseRetryAfter({ ...retry, date: 'yesterday' }, local)).toBe(7_000);
    expect(parseRetryAfter({ ...retry, date: '' }, local)).toBe(7_000);
  });

  describe('over a loopback server whose clock is two hours behind', () => {
    let loop: Loopback | undefined;
    let transport: HttpTransport | undefined;
    afterEach(async () => {
      await transport?.close();
      await loop?.close();
    });

    it('a 429 carries retryAfterMs 30 000, the wait the server meant', async () => {
      loop = await startLoopback((_req: http.IncomingMessage, res: http.ServerResponse) => {
        const serverNow = Date.now() - 2 * 3_600_000;
        res.sendDate = false;
        res.writeHead(429, {
          date: new Date(serverNow).toUTCString(),
          'retry-after': new Date(serverNow + 30_000).toUTCString(),
          'content-type': 'application/json',
        });
        res.end('{"error":{"message":"slow down"}}');
      });
      transport = createHttpTransport();
      const error = await rejectionOf(
        transport.request({ provider: 'a', method: 'POST', url: `${loop.origin}/x`, body: '{}' }),
      );
      expect(ProviderError.isInstance(error)).toBe(true);
      expect([(error as ProviderError).status, (error as ProviderError).retryAfterMs]).toEqual([429, 30_000]);
    });
  });
});
