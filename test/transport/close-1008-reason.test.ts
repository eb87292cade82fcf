import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/errors/index.js';
import { streamInputError } from '../../src/providers/elevenlabs/errors.js';
import { breakerFailureOf } from '../../src/routing/health/index.js';
import { closeError, closeReasonKind, policyCloseVerdict } from '../../src/transport/websocket-close.js';

const kinds = (e: ProviderError) => [e.retryable, e.isAuthError, breakerFailureOf(e).kind];

describe('close 1008 reason: an auth failure only when the reason says so', () => {
  it('reads reasons: auth (invalid or missing key, unauthorized), transient (quota, concurrency, timeouts), other', () => {
    const reasons = [
      'invalid api key',
      'Missing API key',
      'Unauthorized',
      'not authorized',
      'quota exceeded for this API key',
      'Maximum concurrent connections reached',
      'too many requests',
      'input_timeout_exceeded',
      'inactivity timeout',
      '',
      'bad message',
    ];
    expect(reasons.map(closeReasonKind)).toEqual([
      'auth',
      'auth',
      'auth',
      'auth',
      'transient',
      'transient',
      'transient',
      'transient',
      'transient',
      'other',
      'other',
    ]);
  });

  it('a WebSocket close 1008: auth (not retryable, breaker auth) only for an auth reason', () => {
    expect(kinds(closeError('p', 1008, 'invalid api key', {}))).toEqual([false, true, 'auth']);
    expect(kinds(closeError('p', 1008, 'quota exceeded', {}))).toEqual([true, false, 'failure']);
    expect(kinds(closeError('p', 1008, 'too many concurrent streams', {}))).toEqual([true, false, 'failure']);
    expect(kinds(closeError('p', 1008, '', {}))).toEqual([false, false, 'failure']);
    // A provider-defined 4xxx close whose reason names an auth failure is one too; another
    // 4xxx reason is a retryable failure.
    expect(kinds(closeError('p', 4001, 'unauthorized', {}))).toEqual([false, true, 'auth']);
    expect(kinds(closeError('p', 4000, 'input timeout', {}))).toEqual([true, false, 'failure']);
  });

  it('ElevenLabs { code: 1008, error } messages: invalid_api_key is auth; quota, concurrency and input timeout are transient', () => {
    const message = (error: string, text: string) =>
      streamInputError('eleven', { code: 1008, error, message: text } as never, undefined, false, {});
    expect(kinds(message('invalid_api_key', 'Invalid API key'))).toEqual([false, true, 'auth']);
    expect(kinds(message('quota_exceeded', 'This request exceeds your quota'))).toEqual([
      true,
      false,
      'failure',
    ]);
    expect(kinds(message('concurrent_limit_exceeded', 'Too many concurrent requests'))).toEqual([
      true,
      false,
      'failure',
    ]);
    expect(kinds(message('input_timeout_exceeded', 'No text for 20 s'))).toEqual([true, false, 'failure']);
  });

  it('policyCloseVerdict: the one 1008 rule every adapter uses', () => {
    expect(
      [
        'Too many connections',
        'rate limit exceeded',
        'quota exceeded',
        'Invalid API key',
        'Forbidden',
        '',
        'bad frame',
      ].map(policyCloseVerdict),
    ).toEqual([
      { retryable: true, authError: false },
      { retryable: true, authError: false },
      { retryable: true, authError: false },
      { retryable: false, authError: true },
      { retryable: false, authError: true },
      { retryable: false, authError: false },
      { retryable: false, authError: false },
    ]);
  });

  it('HTTP 401 and 403 stay auth failures (the default without a reason)', () => {
    const e = new ProviderError('no', { provider: 'p', status: 401, retryable: false });
    expect(kinds(e)).toEqual([false, true, 'auth']);
  });
});
