import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../src/transport/retry-after.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads integer seconds', () => {
    expect(parseRetryAfter({ 'retry-after': '3' }, now)).toBe(3000);
    expect(parseRetryAfter({ 'retry-after': ' 0 ' }, now)).toBe(0);
  });

  it('reads an HTTP-date against the wall clock, and 0 for a date in the past', () => {
    expect(parseRetryAfter({ 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }, now)).toBe(7000);
    expect(parseRetryAfter({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }, now)).toBe(0);
  });

  it('prefers retry-after-ms, which may be fractional', () => {
    expect(parseRetryAfter({ 'retry-after-ms': '250.5', 'retry-after': '3' }, now)).toBe(250.5);
  });

  it('falls back to retry-after when retry-after-ms is invalid', () => {
    expect(parseRetryAfter({ 'retry-after-ms': 'soon', 'retry-after': '2' }, now)).toBe(2000);
  });

  it('gives undefined when absent or unparseable', () => {
    expect(parseRetryAfter({}, now)).toBeUndefined();
    expect(parseRetryAfter({ 'retry-after': 'later' }, now)).toBeUndefined();
    expect(parseRetryAfter({ 'retry-after': '-5' }, now)).toBeUndefined();
  });

  it('uses Date.now() when no time is given', () => {
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    const ms = parseRetryAfter({ 'retry-after': inTenSeconds });
    // toUTCString drops the milliseconds: between 9 and 10 s.
    expect(ms).toBeGreaterThan(8_000);
    expect(ms).toBeLessThanOrEqual(10_000);
  });
});
