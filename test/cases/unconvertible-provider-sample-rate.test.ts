/**
 * A provider's WAV answer whose header gives a sample rate the resampler refuses (7 Hz: more
 * than 256 times from the caller's 24 000; 384 000 Hz: above 192 000). The converter's
 * RangeError became a generic ProviderError "Provider 'a' failed: Resampler: ..." or
 * "...: createAudioConverter: from.sampleRate must be ...", naming voxroute's internals.
 * docs/providers.md: a rate it cannot convert is a ProtocolError (naming the rate), and the
 * next provider serves. Servers speak the wire on their own (node:http on loopback).
 */
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../src/index.js';
import { wavHeaderByHand } from '../helpers/wav-header.js';
import { answerPcm, concat, drain, httpServer, pcmSignal, router } from './wire/servers.js';

const PCM24K = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 } as const;
const PCM = pcmSignal(2400, 24_000);

/** A mono 16-bit PCM WAV file whose header says `rate`, with a streaming-placeholder RIFF size. */
function wav(rate: number, data: Buffer): Buffer {
  return Buffer.concat([wavHeaderByHand(rate, data.byteLength, { riffBytes: 0xffffffff }), data]);
}

const cases: Array<[number, string]> = [
  [
    7,
    "Provider 'a' sent audio with a sample rate of 7 Hz, which voxroute cannot convert to 24000 Hz (more than 256 times apart)",
  ],
  [
    384_000,
    "Provider 'a' sent audio with a sample rate of 384000 Hz, which voxroute cannot convert (rates go from 1 to 192000 Hz)",
  ],
];

describe('a provider WAV at a rate voxroute cannot convert: ProtocolError naming the rate, next provider serves', () => {
  for (const [rate, message] of cases)
    it(`${rate} Hz`, async () => {
      const a = await httpServer((req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': 'audio/wav' }).end(wav(rate, PCM));
      });
      const b = await httpServer((req, res) => {
        req.resume();
        req.on('end', () => answerPcm(res, PCM));
      });
      const r = router({
        providers: {
          a: {
            kind: 'openai-compatible',
            baseUrl: `${a.url}/v1`,
            apiKey: 'test-key-a',
            tts: { voices: { agent: 'v' }, responseFormat: 'wav' },
          },
          b: {
            kind: 'openai-compatible',
            baseUrl: `${b.url}/v1`,
            apiKey: 'test-key-b',
            tts: { voices: { agent: 'v' } },
          },
        },
        routes: { tts: { providers: ['a', 'b'], strategy: 'priority' } },
      });
      const stream = r.tts({ text: 'Hello there.', voice: 'agent', format: PCM24K });
      const { items, error } = await drain(stream);
      expect(error).toBe(undefined);
      expect(concat(items.map((c) => c.data)).equals(PCM)).toBe(true);
      const result = await stream.result;
      expect(result.provider).toBe('b');
      expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
        ['a', 'failed'],
        ['b', 'success'],
      ]);
      const cause = result.attempts[0]!.error as ProtocolError;
      expect(cause).toBeInstanceOf(ProtocolError);
      expect([cause.message, cause.retryable, cause.partialOutput, cause.provider]).toEqual([
        message,
        true,
        false,
        'a',
      ]);
    });
});
