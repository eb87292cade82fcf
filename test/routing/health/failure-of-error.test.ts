import { describe, expect, it } from 'vitest';
import { AbortError } from '../../../src/errors/abort-error.js';
import { ProtocolError } from '../../../src/errors/protocol-error.js';
import { ProviderError } from '../../../src/errors/provider-error.js';
import { TimeoutError } from '../../../src/errors/timeout-error.js';
import { VoxrouteError } from '../../../src/errors/voxroute-error.js';
import { breakerFailureOf } from '../../../src/routing/health/failure-of-error.js';
import { providerErrorFromStatus } from '../../../src/transport/status-error.js';
import { setup } from './helpers.js';

const status = (code: number, headers: Record<string, string> = {}, nowMs?: number) =>
  providerErrorFromStatus({ provider: 'p', status: code, headers, bodyText: '', nowMs });

describe('breakerFailureOf', () => {
  it('classes auth statuses 401, 403 and WebSocket close 1008 as auth', () => {
    expect(breakerFailureOf(status(401))).toEqual({ kind: 'auth' });
    expect(breakerFailureOf(status(403))).toEqual({ kind: 'auth' });
    const ws = new ProviderError('closed 1008', { provider: 'p', status: 1008 });
    expect(breakerFailureOf(ws)).toEqual({ kind: 'auth' });
  });

  it('carries Retry-After in seconds and as an HTTP-date', () => {
    expect(breakerFailureOf(status(429, { 'retry-after': '30' }))).toEqual({
      kind: 'failure',
      retryAfterMs: 30_000,
    });
    const now = Date.UTC(2025, 0, 1, 12, 0, 0);
    const date = new Date(now + 45_000).toUTCString();
    expect(breakerFailureOf(status(503, { 'retry-after': date }, now))).toEqual({
      kind: 'failure',
      retryAfterMs: 45_000,
    });
  });

  it('a 429 with an HTTP-date Retry-After of 45 s opens the breaker for 45 s', () => {
    const now = Date.UTC(2025, 0, 1, 12, 0, 0);
    const error = status(429, { 'retry-after': new Date(now + 45_000).toUTCString() }, now);
    const { breaker, changes } = setup();
    breaker.recordFailure(breakerFailureOf(error));
    expect(changes).toEqual([
      { from: 'closed', to: 'open', reason: 'retry-after', at: 0, cooldownMs: 45_000, reopenAt: 45_000 },
    ]);
  });

  it('classes provider-side failures as failures', () => {
    for (const code of [404, 408, 429, 500, 502, 503, 529]) {
      expect(breakerFailureOf(status(code))).toEqual({ kind: 'failure' });
    }
    expect(breakerFailureOf(new TimeoutError('first-chunk', 1500, { provider: 'p' }))).toEqual({
      kind: 'failure',
    });
    expect(breakerFailureOf(new ProtocolError('bad frame', { provider: 'p', offset: 3 }))).toEqual({
      kind: 'failure',
    });
    expect(breakerFailureOf(new Error('something odd'))).toEqual({ kind: 'failure' });
  });

  it('does not charge a request the provider rightly called bad, usage errors, or aborts', () => {
    for (const code of [400, 413, 422]) expect(breakerFailureOf(status(code))).toEqual({ kind: 'cancelled' });
    expect(breakerFailureOf(new VoxrouteError('bad input'))).toEqual({ kind: 'cancelled' });
    expect(breakerFailureOf(new AbortError())).toEqual({ kind: 'cancelled' });
    expect(breakerFailureOf(new DOMException('aborted', 'AbortError'))).toEqual({ kind: 'cancelled' });
  });

  it('the context flags win: cancelled (barge-in, hedge loser), then a reused-socket reset', () => {
    expect(breakerFailureOf(status(503), { cancelled: true })).toEqual({ kind: 'cancelled' });
    expect(breakerFailureOf(status(401), { cancelled: true, reusedSocketReset: true })).toEqual({
      kind: 'cancelled',
    });
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    expect(breakerFailureOf(reset, { reusedSocketReset: true })).toEqual({ kind: 'ignored' });
    expect(breakerFailureOf(reset)).toEqual({ kind: 'failure' });
  });
});
