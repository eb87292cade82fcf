import { describe, expect, it } from 'vitest';
import { isRetryableProviderKind, isRetryableStatus } from '../../src/transport/classify.js';

describe('isRetryableStatus', () => {
  it('retries 408, 409, 425, 429 and every 5xx including 529', () => {
    const statuses = [408, 409, 425, 429, 500, 502, 503, 504, 529, 599];
    expect(statuses.map(isRetryableStatus)).toEqual(statuses.map(() => true));
  });

  it('does not retry 400, 401, 403, 404, 413, 422, other 4xx, 3xx or 2xx', () => {
    const statuses = [200, 301, 400, 401, 402, 403, 404, 405, 410, 413, 415, 422, 451];
    expect(statuses.map(isRetryableStatus)).toEqual(statuses.map(() => false));
  });
});

describe('isRetryableProviderKind', () => {
  it('retries overloaded, rate-limit, server and api errors', () => {
    expect(isRetryableProviderKind('overloaded_error', 'overloaded')).toBe(true);
    expect(isRetryableProviderKind('rate_limit_error', undefined)).toBe(true);
    expect(isRetryableProviderKind('server_error', undefined)).toBe(true);
    expect(isRetryableProviderKind('api_error', undefined)).toBe(true);
  });

  it('does not retry invalid-request, authentication, permission and not-found errors', () => {
    expect(isRetryableProviderKind('invalid_request_error', undefined)).toBe(false);
    expect(isRetryableProviderKind('authentication_error', undefined)).toBe(false);
    expect(isRetryableProviderKind('permission_error', undefined)).toBe(false);
    expect(isRetryableProviderKind('not_found_error', undefined)).toBe(false);
  });

  it("follows the status rule for vLLM's integer code", () => {
    expect(isRetryableProviderKind('BadRequestError', 400)).toBe(false);
    expect(isRetryableProviderKind('InternalServerError', 500)).toBe(true);
    expect(isRetryableProviderKind(undefined, 429)).toBe(true);
  });

  it('retries an unknown kind (a mid-stream failure is more often transient)', () => {
    expect(isRetryableProviderKind(undefined, undefined)).toBe(true);
    expect(isRetryableProviderKind('something_odd', 'x1')).toBe(true);
  });
});
