import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/errors/index.js';
import { closeError, isNormalClose, isRetryableClose } from '../../src/transport/websocket-close.js';
import { connectionSecrets, redactUrl } from '../../src/transport/websocket-redact.js';

describe('isNormalClose / isRetryableClose', () => {
  it('1000 and 1005 end a stream normally; nothing else does', () => {
    expect([1000, 1005, 1001, 1006, 1011, 4000].map(isNormalClose)).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });

  it('C18: 1008 is not retryable, unless its reason names a passing condition (quota, concurrency, timeout)', () => {
    expect(isRetryableClose(1008, 'invalid api key')).toBe(false);
    expect(isRetryableClose(1008, 'DATA-0000')).toBe(false);
    expect(isRetryableClose(1008, '')).toBe(false);
    expect(isRetryableClose(1008, 'quota exceeded')).toBe(true);
    expect(isRetryableClose(1008, 'too many concurrent requests')).toBe(true);
    expect(isRetryableClose(1008, 'input_timeout_exceeded')).toBe(true);
  });

  it('data and protocol errors from our side are not retryable; server-side failures are', () => {
    const codes = [1001, 1002, 1003, 1006, 1007, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3003, 3008];
    expect(codes.map((code) => [code, isRetryableClose(code, '')])).toEqual([
      [1001, true],
      [1002, false],
      [1003, false],
      [1006, true],
      [1007, false],
      [1009, false],
      [1010, false],
      [1011, true],
      [1012, true],
      [1013, true],
      [1014, true],
      [3000, false],
      [3003, false],
      [3008, true],
    ]);
  });

  it('4000-4999 are retryable unless the reason names an authentication failure', () => {
    expect(isRetryableClose(4000, 'rate limited')).toBe(true);
    expect(isRetryableClose(4008, 'inactivity timeout')).toBe(true);
    expect(isRetryableClose(4001, 'Unauthorized')).toBe(false);
    expect(isRetryableClose(4003, 'forbidden')).toBe(false);
    expect(isRetryableClose(4401, 'Invalid API key')).toBe(false);
    expect(isRetryableClose(4002, 'invalid_key')).toBe(false);
    expect(isRetryableClose(4100, 'authentication failed')).toBe(false);
  });
});

describe('closeError', () => {
  it('names the code and keeps the reason, without any secret', () => {
    const secrets = connectionSecrets('wss://h/x?api_key=sk-0123456789', { 'xi-api-key': 'xi-abcdefghij' });
    const error = closeError('eleven', 1008, 'bad key xi-abcdefghij / sk-0123456789', secrets);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error.message).toBe(
      "Provider 'eleven' closed the WebSocket with code 1008 (Policy Violation): bad key [redacted] / [redacted]",
    );
    expect(error.status).toBe(1008);
    expect(error.retryable).toBe(false);
    expect(error.provider).toBe('eleven');
    expect(closeError('p', 4321, '', {}).message).toBe("Provider 'p' closed the WebSocket with code 4321");
  });
});

describe('redactUrl', () => {
  it('redacts the values of secret query parameters and keeps the others', () => {
    expect(redactUrl('wss://api.test/v1/listen?model=nova-3&token=abc123&encoding=linear16')).toBe(
      'wss://api.test/v1/listen?model=nova-3&token=[redacted]&encoding=linear16',
    );
    expect(redactUrl('wss://a.test/?api_key=1&key=2&xi-api-key=3&authorization=4&access_token=5&x=6')).toBe(
      'wss://a.test/?api_key=[redacted]&key=[redacted]&xi-api-key=[redacted]&authorization=[redacted]&access_token=[redacted]&x=6',
    );
  });

  it('drops userinfo and fragments; a URL without a query is unchanged', () => {
    expect(redactUrl('wss://user:pass@a.test/p#frag')).toBe('wss://a.test/p');
    expect(redactUrl('ws://127.0.0.1:8080/v1/tts')).toBe('ws://127.0.0.1:8080/v1/tts');
  });

  it('cuts the query of a string that does not parse as a URL', () => {
    expect(redactUrl('not a url?api_key=secret')).toBe('not a url?[redacted]');
  });
});

describe('connectionSecrets', () => {
  it('collects secret headers and secret query values (decoded, encoded, as written)', () => {
    expect(
      connectionSecrets('wss://a.test/?token=a b+c/d&model=m', { authorization: 'Token xyz', accept: 'x' }),
    ).toEqual({
      authorization: 'Token xyz',
      accept: 'x',
      'query-key-0': 'a%20b+c/d',
      'query-key-1': 'a b c/d',
      'query-key-2': 'a%20b%20c%2Fd',
      'query-key-3': 'a b+c/d',
    });
  });

  it('tolerates a bad % escape (the value as written stands) and decodes the user info password', () => {
    expect(connectionSecrets('wss://u:p%40ss%zz12@a.test/?api-key=abc%zz123456#frag', undefined)).toEqual({
      'query-key-0': 'abc%zz123456',
      'query-key-1': 'abc%25zz123456',
      'query-key-2': 'p%40ss%zz12',
    });
    expect(connectionSecrets('wss://u:p%40ssw0rd@a.test/', undefined)).toEqual({
      'query-key-0': 'p%40ssw0rd',
      'query-key-1': 'p@ssw0rd',
    });
  });
});
