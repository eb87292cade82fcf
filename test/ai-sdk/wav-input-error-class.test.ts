/**
 * Fault kind: wrong error class for the caller's own input. A WAV file given to the AI SDK
 * transcription model that voxroute cannot read (stereo, 8-bit, an unknown format tag, a cut
 * header) is the caller's input, so it is a RequestError at field `audio` before any provider is
 * called (docs/ai-sdk.md), not the ProtocolError that means a provider broke its wire protocol.
 * Calls `doGenerate` as the AI SDK does, so it also runs on Node 20 (no `ai` import).
 */
import { describe, expect, it } from 'vitest';
import { createVoxroute } from '../../src/ai-sdk/index.js';
import { ProtocolError, RequestError } from '../../src/index.js';
import { twoProviders } from '../helpers/mock-router.js';

/** A 44-byte WAV header (fmt tag, channels, bits, rate) and `dataBytes` of silence. */
function wav(tag: number, channels: number, bits: number, rate: number, dataBytes: number): Uint8Array {
  const b = Buffer.alloc(44 + dataBytes);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + dataBytes, 4);
  b.write('WAVE', 8);
  b.write('fmt ', 12);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(tag, 20);
  b.writeUInt16LE(channels, 22);
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE((rate * channels * bits) / 8, 28);
  b.writeUInt16LE((channels * bits) / 8, 32);
  b.writeUInt16LE(bits, 34);
  b.write('data', 36);
  b.writeUInt32LE(dataBytes, 40);
  return new Uint8Array(b);
}

const CASES: [string, Uint8Array, string][] = [
  ['stereo', wav(1, 2, 16, 16_000, 6400), 'a WAV file voxroute cannot read: WAV has 2 channels'],
  [
    '8-bit PCM',
    wav(1, 1, 8, 16_000, 3200),
    'a WAV file voxroute cannot read: WAV 8-bit PCM is not supported',
  ],
  [
    'MP3 in WAV (tag 0x0055)',
    wav(0x55, 1, 16, 16_000, 3200),
    'a WAV file voxroute cannot read: WAV format tag 0x0055',
  ],
  [
    'a header cut at 30 bytes',
    wav(1, 1, 16, 16_000, 3200).subarray(0, 30),
    'a WAV file voxroute cannot read: WAV stream ended after 30 bytes',
  ],
];

describe('AI SDK transcription model: an unreadable WAV file is the caller’s RequestError', () => {
  for (const [label, audio, message] of CASES) {
    it(`${label}: RequestError at 'audio', no provider called`, async () => {
      const { router, a, b } = await twoProviders();
      const error = await createVoxroute(router)
        .transcriptionModel()
        .doGenerate({ audio, mediaType: 'audio/wav' })
        .catch((e: unknown) => e);
      expect(RequestError.isInstance(error)).toBe(true);
      expect(ProtocolError.isInstance(error)).toBe(false);
      expect((error as RequestError).field).toBe('audio');
      expect((error as RequestError).message).toContain(message);
      expect(ProtocolError.isInstance((error as RequestError).cause)).toBe(true);
      expect([a.calls('transcription'), b.calls('transcription')]).toEqual([0, 0]);
    });
  }

  it("bytes with no RIFF header that the AI SDK labelled 'audio/wav' are not called a WAV media type", async () => {
    const { router } = await twoProviders();
    const error = await createVoxroute(router)
      .transcriptionModel()
      .doGenerate({ audio: new Uint8Array(3200), mediaType: 'audio/wav' })
      .catch((e: unknown) => e);
    expect((error as RequestError).field).toBe('audio');
    expect((error as RequestError).message).toBe(
      "Invalid request field 'audio': not a WAV file (no RIFF/WAVE header): send WAV, or raw samples with providerOptions.voxroute.sampleRate (and encoding)",
    );
  });
});
