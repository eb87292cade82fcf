/**
 * Fault kind: a caller's input with nothing in it answered as success. The AI SDK speech model
 * given text that is empty, only white space or without a letter or digit returned a WAV file
 * of 44 bytes (a header, no samples): `generateSpeech` took it as speech, since its own
 * NoSpeechGeneratedError check only sees an empty byte array. It is now a RequestError at field
 * `text`, before any provider is called. Calls `doGenerate` as the AI SDK does, so it also runs
 * on Node 20 (no `ai` import).
 */
import { describe, expect, it } from 'vitest';
import { createVoxroute } from '../../src/ai-sdk/index.js';
import { encodeWav, RequestError } from '../../src/index.js';
import { mockSpeechPcm } from '../../src/testing/index.js';
import { twoProviders } from '../helpers/mock-router.js';

const CASES: [string, unknown, string][] = [
  ['empty', '', "Invalid request field 'text': is empty or only white space: nothing to speak"],
  ['white space', ' \n\t ', "Invalid request field 'text': is empty or only white space: nothing to speak"],
  [
    'punctuation and emoji only',
    '... 🙂 !',
    "Invalid request field 'text': has nothing to speak (no letter or digit in any script): no audio",
  ],
  ['not a string', 42, "Invalid request field 'text': must be a string, got number: nothing to speak"],
];

describe('AI SDK speech model: text with nothing to speak is the caller’s RequestError', () => {
  for (const [label, text, message] of CASES) {
    it(`${label}: RequestError at 'text' naming why, no provider called, no 44-byte WAV`, async () => {
      const { router, a, b } = await twoProviders();
      const error = await createVoxroute(router)
        .speechModel('agent')
        .doGenerate({ text: text as string })
        .catch((e: unknown) => e);
      expect(RequestError.isInstance(error)).toBe(true);
      expect([(error as RequestError).field, (error as RequestError).message]).toEqual(['text', message]);
      expect([a.calls('speech'), b.calls('speech')]).toEqual([0, 0]);
    });
  }

  it('text with words still gives the WAV file of its audio', async () => {
    const { router } = await twoProviders();
    const { audio } = await createVoxroute(router).speechModel('agent').doGenerate({ text: 'Booked.' });
    const pcm = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 } as const;
    expect(
      Buffer.from(audio as Uint8Array).equals(Buffer.from(encodeWav(pcm, mockSpeechPcm('Booked.')))),
    ).toBe(true);
  });
});
