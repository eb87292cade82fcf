import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/errors/index.js';
import { redactSecrets } from '../../src/transport/redact.js';
import { providerErrorFromStatus } from '../../src/transport/status-error.js';

describe('providerErrorFromStatus', () => {
  it('builds a retryable ProviderError with Retry-After and the provider code for a 429', () => {
    const error = providerErrorFromStatus({
      provider: 'ec2',
      status: 429,
      headers: { 'retry-after': '2', 'content-type': 'application/json' },
      bodyText: '{"error":{"message":"slow down","type":"requests","code":"rate_limit_exceeded"}}',
    });
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error.message).toBe("Provider 'ec2' answered HTTP 429: slow down");
    expect(error.provider).toBe('ec2');
    expect(error.status).toBe(429);
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBe(2000);
    expect(error.providerCode).toBe('rate_limit_exceeded');
    expect(error.providerType).toBe('requests');
    expect(error.partialOutput).toBe(false);
  });

  it('is not retryable for a 401, and flags it as an auth error', () => {
    const error = providerErrorFromStatus({ provider: 'a', status: 401, headers: {}, bodyText: 'nope' });
    expect(error.retryable).toBe(false);
    expect(error.isAuthError).toBe(true);
    expect(error.retryAfterMs).toBeUndefined();
  });

  it('never puts a request secret in the message, even when the provider echoes it', () => {
    const key = 'sk-test-abcdef123456';
    const error = providerErrorFromStatus({
      provider: 'a',
      status: 401,
      headers: {},
      bodyText: `{"error":{"message":"Invalid key Bearer ${key}"}}`,
      requestHeaders: { authorization: `Bearer ${key}`, 'x-api-key': 'xi-secret-777777' },
    });
    expect(error.message).toBe("Provider 'a' answered HTTP 401: Invalid key [redacted]");
  });
});

describe('redactSecrets', () => {
  it('removes values of secret headers and the token of Bearer values', () => {
    const headers = {
      Authorization: 'Bearer tok_1234567',
      'xi-api-key': 'eleven-999999',
      accept: 'text/event-stream',
    };
    expect(redactSecrets('a tok_1234567 b eleven-999999 c text/event-stream', headers)).toBe(
      'a [redacted] b [redacted] c text/event-stream',
    );
  });
});
