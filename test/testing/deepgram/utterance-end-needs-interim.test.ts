/**
 * Deepgram's UtteranceEnd works from interim results: its docs require `interim_results=true`
 * with `utterance_end_ms` (PROTOCOLS.md 3.2, DGDOC-utterance-end). The mock sent UtteranceEnd
 * whenever `utterance_end_ms` was asked, so an app that forgot `interim_results=true` got its
 * end of speech in CI and never from Deepgram. Now UtteranceEnd needs both.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createDeepgramMock,
  type MockServer,
  startMockServer,
  syntheticAudio,
} from '../../../src/testing/index.js';
import { openClient } from './ws-client.js';

const KEY = 'dg-utterance-end-key';
const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16000 } as const;

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The message types of one session (Results as `final`/`interim`), 1 s of audio then CloseStream. */
async function session(query: string): Promise<string[]> {
  const mock = createDeepgramMock({
    apiKey: KEY,
    transcript: 'Hi there. Bye',
    wordMs: 200,
    inactivityTimeoutMs: 0,
  });
  server = await startMockServer({ provider: mock });
  const client = await openClient(
    `${server.url.replace('http:', 'ws:')}/v1/listen?model=nova-3&encoding=linear16&sample_rate=16000&${query}`,
    { headers: { authorization: `Token ${KEY}` } },
  );
  client.ws.send(syntheticAudio({ durationMs: 300, format: FORMAT }));
  client.ws.send(syntheticAudio({ durationMs: 300, format: FORMAT, seed: 1 }));
  client.sendJson({ type: 'CloseStream' });
  expect(await client.closed).toEqual({ code: 1000, reason: '' });
  return client.messages.map((m) => {
    const msg = m as { type: string; is_final?: boolean; last_word_end?: number };
    if (msg.type === 'Results') return msg.is_final ? 'final' : 'interim';
    return msg.type === 'UtteranceEnd' ? `UtteranceEnd@${msg.last_word_end}` : msg.type;
  });
}

describe('Deepgram mock: UtteranceEnd needs interim_results=true with utterance_end_ms', () => {
  it('utterance_end_ms with interim_results=true: UtteranceEnd after the sentence end', async () => {
    expect(await session('interim_results=true&utterance_end_ms=1000')).toEqual([
      'interim',
      'final',
      'UtteranceEnd@0.4',
      'interim',
      'final',
      'Metadata',
    ]);
  });

  it.each(['utterance_end_ms=1000', 'interim_results=false&utterance_end_ms=1000'])(
    '%s (no interim results): no UtteranceEnd, as Deepgram has no interim results to work from',
    async (query) => {
      expect(await session(query)).toEqual(['final', 'final', 'Metadata']);
    },
  );
});
