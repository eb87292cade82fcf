/**
 * What the Deepgram mock lets a user test: its endpoint (`speech_final` at a sentence end) ends
 * the user's speech in a voiceTurn() whose audio stays open, over the loopback mocks of a config.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRouter, type Router, type TurnEvent, voiceTurn } from '../../../src/index.js';
import { type MockProviders, startMockProviders } from '../../../src/testing/index.js';
import { readmeConfig } from '../../helpers/mock-providers.js';

const FORMAT = { encoding: 'pcm_s16le' as const, sampleRate: 16_000, channels: 1 as const };

let started: MockProviders | undefined;
let router: Router | undefined;
afterEach(async () => {
  await router?.close();
  await started?.close();
  router = undefined;
  started = undefined;
});

describe('Deepgram mock: end of speech in a voice turn', () => {
  it('replies at the sentence end (speech_final) while the caller audio stays open', async () => {
    started = await startMockProviders(readmeConfig(), {
      providers: {
        dg: { transcript: 'Book a table. And more', wordMs: 100 },
        oa: { chat: { deltas: ['Sure.'] } },
      },
    });
    router = createRouter(started.config);
    let sent = 0;
    let returned = false;
    const never = new Promise<void>(() => {});
    async function* microphone(): AsyncGenerator<Uint8Array> {
      try {
        // 300 ms: "Book a table." ends there; then the microphone stays open, silent.
        for (; sent < 3; sent++) yield new Uint8Array(3_200);
        await never;
      } finally {
        returned = true;
      }
    }
    const turn = voiceTurn(router, {
      audio: microphone(),
      format: FORMAT,
      messages: [],
      model: 'fast',
      voice: 'agent',
      routes: { stt: 'dg' },
    });
    const events: TurnEvent[] = [];
    for await (const event of turn) events.push(event);
    const result = await turn.result;
    expect(
      events.flatMap((e) => (e.type === 'transcript' ? [[e.event.text, e.event.endOfSpeech]] : [])),
    ).toEqual([['book a table', true]]);
    expect(result.transcript).toBe('book a table');
    expect(result.reply).toBe('Sure.');
    expect(events.some((e) => e.type === 'audio')).toBe(true);
    expect(result.stages.stt.provider).toBe('dg');
    expect(returned).toBe(false);
    const dg = started.mocks.dg!;
    if (dg.kind !== 'deepgram') throw new Error('dg is the Deepgram mock');
    const session = await dg.mock.session(0);
    await session.closed;
    expect(session.controls).toEqual(['Finalize', 'CloseStream']);
    expect(session.audioBytes).toBe(3 * 3_200);
  });
});
