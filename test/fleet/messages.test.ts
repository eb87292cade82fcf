import { describe, expect, it } from 'vitest';
import {
  decodeBreakerMessage,
  decodeLatencySummary,
  encodeMessage,
  MAX_MESSAGE_LENGTH,
} from '../../src/fleet/messages.js';

describe('fleet messages: small, versioned JSON', () => {
  it('encodes an opening and decodes it back', () => {
    const text = encodeMessage({
      v: 1,
      t: 'open',
      id: 'i1',
      p: 'ec2',
      c: 'tts',
      u: 1_764_600_000_000,
      r: 'retry-after',
    });
    expect(text).toBe('{"v":1,"t":"open","id":"i1","p":"ec2","c":"tts","u":1764600000000,"r":"retry-after"}');
    expect(decodeBreakerMessage(text!)).toEqual({
      v: 1,
      t: 'open',
      id: 'i1',
      p: 'ec2',
      c: 'tts',
      u: 1_764_600_000_000,
      r: 'retry-after',
    });
    expect(decodeBreakerMessage('{"v":1,"t":"close","id":"i1","p":"ec2","c":"chat"}')).toEqual({
      v: 1,
      t: 'close',
      id: 'i1',
      p: 'ec2',
      c: 'chat',
    });
  });

  it('ignores another version, a bad capability, a missing field, bad JSON and anything over 1 KiB', () => {
    expect(decodeBreakerMessage('{"v":2,"t":"close","id":"i","p":"ec2","c":"tts"}')).toBeUndefined();
    expect(decodeBreakerMessage('{"v":1,"t":"close","id":"i","p":"ec2","c":"video"}')).toBeUndefined();
    expect(decodeBreakerMessage('{"v":1,"t":"open","id":"i","p":"ec2","c":"tts","r":"x"}')).toBeUndefined();
    expect(decodeBreakerMessage('{not json')).toBeUndefined();
    const long = {
      v: 1 as const,
      t: 'close' as const,
      id: 'i',
      p: 'x'.repeat(MAX_MESSAGE_LENGTH),
      c: 'tts' as const,
    };
    expect(encodeMessage(long)).toBeUndefined();
    expect(decodeBreakerMessage(JSON.stringify(long))).toBeUndefined();
  });

  it('decodes a latency summary and rejects negative or missing numbers', () => {
    expect(decodeLatencySummary('{"v":1,"ewma":120.5,"p95":200,"n":42,"at":1}')).toEqual({
      v: 1,
      ewma: 120.5,
      p95: 200,
      n: 42,
      at: 1,
    });
    expect(decodeLatencySummary('{"v":1,"ewma":-1,"p95":200,"n":42,"at":1}')).toBeUndefined();
    expect(decodeLatencySummary('{"v":1,"ewma":1,"n":42,"at":1}')).toBeUndefined();
  });
});
