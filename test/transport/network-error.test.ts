import { describe, expect, it } from 'vitest';
import { ConfigError, ProtocolError, ProviderError, TimeoutError } from '../../src/errors/index.js';
import { errorCode, isNetworkError, mapWireError } from '../../src/transport/network-error.js';

function codeError(code: string, message = code): Error {
  return Object.assign(new Error(message), { code });
}

describe('mapWireError', () => {
  it('maps a refused connection before headers to a retryable ProviderError without status', () => {
    const error = mapWireError(codeError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9'), {
      provider: 'p',
      stage: 'request',
    });
    expect(ProviderError.isInstance(error)).toBe(true);
    if (!ProviderError.isInstance(error)) return;
    expect(error.retryable).toBe(true);
    expect(error.status).toBeUndefined();
    expect(error.message).toBe("Network error talking to provider 'p': connect ECONNREFUSED 127.0.0.1:9");
  });

  it('maps reset, closed socket and DNS failures to retryable errors', () => {
    for (const code of ['ECONNRESET', 'UND_ERR_SOCKET', 'ENOTFOUND', 'EAI_AGAIN']) {
      const error = mapWireError(codeError(code), { provider: 'p', stage: 'request' });
      expect([code, ProviderError.isInstance(error), error.retryable]).toEqual([code, true, true]);
    }
  });

  it("unwraps fetch's TypeError('fetch failed', { cause })", () => {
    const error = new TypeError('fetch failed', { cause: codeError('ECONNRESET', 'read ECONNRESET') });
    expect(errorCode(error)).toBe('ECONNRESET');
    expect(isNetworkError(error)).toBe(true);
    const mapped = mapWireError(error, { provider: 'p', stage: 'request', fromFetch: true });
    expect(mapped.message).toBe("Network error talking to provider 'p': read ECONNRESET");
  });

  it('maps a non-network failure to a non-retryable ProviderError', () => {
    const error = mapWireError(codeError('UND_ERR_NOT_SUPPORTED', 'not supported'), {
      provider: 'p',
      stage: 'request',
    });
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error.retryable).toBe(false);
  });

  it.each(['UND_ERR_INVALID_ARG', 'ERR_INVALID_CHAR', 'ERR_HTTP_INVALID_HEADER_VALUE'])(
    'maps %s (the client refused to send the request) to a ConfigError at the provider, not a provider failure',
    (code) => {
      const error = mapWireError(codeError(code, 'invalid authorization header'), {
        provider: 'gpu',
        stage: 'request',
      });
      expect(ConfigError.isInstance(error)).toBe(true);
      expect((error as ConfigError).issues).toEqual([
        {
          path: ['providers', 'gpu'],
          message: `the HTTP client cannot send the request: ${code} (invalid authorization header) (a header value from apiKey or headers may contain a line break or control character)`,
        },
      ]);
      expect(error.retryable).toBe(false);
    },
  );

  it("maps the HTTP client's own timeouts to TimeoutError with the phase, said to be the client's, not a route setting", () => {
    // voxroute's deadlines (here 300 ms) fire as their own errors: a headers or body timeout
    // code is the client's own (a caller's fetch whose dispatcher has one).
    const headers = mapWireError(codeError('UND_ERR_HEADERS_TIMEOUT'), {
      provider: 'p',
      stage: 'request',
      timeoutMsOf: () => 300,
    });
    expect(TimeoutError.isInstance(headers)).toBe(true);
    if (!TimeoutError.isInstance(headers)) return;
    expect([headers.phase, headers.timeoutMs, headers.setting, headers.retryable]).toEqual([
      'headers',
      0,
      undefined,
      true,
    ]);
    expect(headers.message).toBe(
      "No response headers from provider 'p' before the HTTP client's own timeout (UND_ERR_HEADERS_TIMEOUT: its headersTimeout), not a voxroute deadline: the route's deadlines apply where the client's own timeouts are off (0) or longer",
    );
    const body = mapWireError(codeError('UND_ERR_BODY_TIMEOUT'), {
      provider: 'p',
      stage: 'body',
      partialOutput: true,
      timeoutMsOf: () => 5000,
    });
    expect(
      TimeoutError.isInstance(body) && [body.phase, body.timeoutMs, body.setting, body.partialOutput],
    ).toEqual(['idle', 0, undefined, true]);
    expect(body.message).toContain('(UND_ERR_BODY_TIMEOUT: its bodyTimeout)');
    // A connect timeout is the route's when voxroute ran a connect deadline, else the agent's own.
    const routes = mapWireError(codeError('UND_ERR_CONNECT_TIMEOUT'), {
      provider: 'p',
      stage: 'request',
      timeoutMsOf: () => 2000,
    });
    expect(TimeoutError.isInstance(routes) && [routes.phase, routes.timeoutMs, routes.setting]).toEqual([
      'connect',
      2000,
      'connectTimeoutMs',
    ]);
    expect(routes.message).toBe("No connection from provider 'p' within 2000 ms (connectTimeoutMs)");
    const agents = mapWireError(codeError('UND_ERR_CONNECT_TIMEOUT'), { provider: 'p', stage: 'request' });
    expect(TimeoutError.isInstance(agents) && [agents.phase, agents.timeoutMs, agents.setting]).toEqual([
      'connect',
      0,
      undefined,
    ]);
    expect(agents.message).toContain('(UND_ERR_CONNECT_TIMEOUT: its connect.timeout)');
  });

  it('maps a socket closed mid-body to a truncated ProtocolError with the offset', () => {
    const error = mapWireError(codeError('UND_ERR_SOCKET', 'other side closed'), {
      provider: 'p',
      stage: 'body',
      receivedBytes: 30_000,
      contentLength: 48_000,
      partialOutput: true,
    });
    expect(ProtocolError.isInstance(error)).toBe(true);
    if (!ProtocolError.isInstance(error)) return;
    expect([error.offset, error.retryable, error.partialOutput]).toEqual([30_000, true, true]);
    expect(error.message).toBe(
      "Response body from provider 'p' was cut after 30000 of 48000 bytes (truncated): UND_ERR_SOCKET (other side closed)",
    );
  });

  it('never puts a request secret in the message', () => {
    const error = mapWireError(new Error('bad header value Bearer abcdefgh12345'), {
      provider: 'p',
      stage: 'request',
      requestHeaders: { authorization: 'Bearer abcdefgh12345' },
    });
    expect(error.message).toBe("Request to provider 'p' failed: bad header value [redacted]");
  });
});

describe('mapWireError on the fetch path', () => {
  it("treats a wrapper's own timeout (DOMException TimeoutError) as a retryable network failure", () => {
    const error = mapWireError(new DOMException('The operation timed out.', 'TimeoutError'), {
      provider: 'p',
      stage: 'request',
      fromFetch: true,
    });
    expect(ProviderError.isInstance(error) && [error.retryable, error.message]).toEqual([
      true,
      "Network error talking to provider 'p': The operation timed out.",
    ]);
  });

  it('maps any failure while reading a fetch body to a truncated ProtocolError', () => {
    const error = mapWireError(new TypeError('terminated'), {
      provider: 'p',
      stage: 'body',
      receivedBytes: 9,
      fromFetch: true,
    });
    expect(ProtocolError.isInstance(error) && [error.offset, error.message]).toEqual([
      9,
      "Response body from provider 'p' was cut after 9 bytes (truncated): terminated",
    ]);
  });
});
