/**
 * Barge-in at every event of a turn (after the transcript, between the transcript and the first
 * reply delta, between deltas, between the sentences' audio, after the last chunk), in each of
 * its three forms: the signal's abort, a `break`, and the iterator's `return()` while a `next()`
 * is pending. Each time: nothing is yielded after it, `result` rejects with AbortError
 * (`partialOutput: true`), every provider request ends (none left open), no abort listener is
 * left on the caller's signal, and no promise rejection goes unhandled. The providers are
 * voxroute's OpenAI-compatible mock on a loopback port; chat and speech send their chunks 1 ms
 * apart so that a barge-in lands while requests are open (speech in 19,200-byte chunks, so the
 * turn has about 15 events).
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { AbortError, createRouter, type TurnEvent, voiceTurn } from '../../src/index.js';
import { createOpenAiCompatibleMock, mockSpeechPcm, startMockServer } from '../../src/testing/index.js';
import { closeAfterTest } from '../helpers/close-after-test.js';
import { collectUnhandledRejections } from '../helpers/unhandled-rejections.js';

const FORMAT = { encoding: 'pcm_s16le' as const, sampleRate: 16_000, channels: 1 as const };
const DELTAS = [
  'Sure',
  ',',
  ' your',
  ' table',
  ' is',
  ' booked',
  '.',
  ' See',
  ' you',
  ' at',
  ' eight',
  ' tonight',
  '.',
];
const closeLater = closeAfterTest();

async function* microphone(): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < 5; i++) yield new Uint8Array(640).fill(i);
}

const unhandled = collectUnhandledRejections();

async function providers() {
  const mock = createOpenAiCompatibleMock({
    transcript: 'Book a table for two.',
    chat: { deltas: DELTAS },
    script: { chat: { chunkGapMs: 1 }, speech: { chunkGapMs: 1, chunkBytes: 19_200 } },
  });
  const server = await startMockServer({ provider: mock });
  closeLater(() => server.close());
  const router = createRouter({
    providers: {
      a: {
        kind: 'openai-compatible',
        baseUrl: `${server.url}/v1`,
        chat: { models: { fast: 'm' } },
        tts: { voices: { agent: 'alloy' } },
        stt: { model: 's' },
      },
    },
    routes: { stt: { providers: ['a'] }, chat: { providers: ['a'] }, tts: { providers: ['a'] } },
  });
  closeLater(() => router.close());
  return { router, mock };
}

type Mode = 'signal' | 'break' | 'return while next() is pending';

describe('voiceTurn: a barge-in at every event', () => {
  it('ends the turn cleanly after each event, in each form', async () => {
    const { router, mock } = await providers();
    const request = (signal: AbortSignal) => ({
      audio: microphone(),
      format: FORMAT,
      messages: [],
      model: 'fast',
      voice: 'agent',
      signal,
    });
    const whole: TurnEvent[] = [];
    const first = voiceTurn(router, request(new AbortController().signal));
    for await (const event of first) whole.push(event);
    expect((await first.result).reply).toBe(DELTAS.join(''));
    // The whole turn: one transcript, the reply's deltas, both sentences' audio in 9 chunks.
    expect(whole[0]?.type).toBe('transcript');
    const audio = whole.flatMap((e) => (e.type === 'audio' ? [e.chunk.data] : []));
    expect(audio.map((a) => a.byteLength)).toEqual([
      19_200, 19_200, 19_200, 19_200, 960, 19_200, 19_200, 19_200, 14_400,
    ]);
    expect(
      Buffer.concat(audio).equals(
        Buffer.concat([
          mockSpeechPcm('Sure, your table is booked.'),
          mockSpeechPcm('See you at eight tonight.'),
        ]),
      ),
    ).toBe(true);

    const modes: Mode[] = ['signal', 'break', 'return while next() is pending'];
    for (let k = 0; k < whole.length; k++) {
      for (const mode of modes) {
        const bargeIn = new AbortController();
        const turn = voiceTurn(router, request(bargeIn.signal));
        const events = turn[Symbol.asyncIterator]();
        const after: TurnEvent[] = [];
        let thrown: unknown;
        try {
          for (let i = 0; ; i++) {
            const r = await events.next();
            if (r.done) break;
            if (i > k) after.push(r.value);
            if (i !== k) continue;
            if (mode === 'signal') bargeIn.abort();
            else if (mode === 'break') {
              await events.return?.();
              break;
            } else {
              const pending = events.next();
              await events.return?.();
              expect(await pending).toEqual({ done: true, value: undefined });
              break;
            }
          }
        } catch (e) {
          thrown = e;
        }
        const error = await turn.result.then(
          () => undefined,
          (e: unknown) => e,
        );
        const at = `${mode} after event ${k}`;
        expect(after, at).toEqual([]);
        expect(error, at).toBeInstanceOf(AbortError);
        expect((error as AbortError).partialOutput, at).toBe(true);
        if (mode === 'signal') expect(thrown, at).toBe(error);
        else expect(thrown, at).toBeUndefined();
        expect(getEventListeners(bargeIn.signal, 'abort'), at).toEqual([]);
      }
    }
    const outcomes = await Promise.all(mock.requests.map((r) => r.ended));
    expect(outcomes.filter((o) => o === 'pending')).toEqual([]);
    expect(unhandled).toEqual([]);
  }, 60_000);
});
