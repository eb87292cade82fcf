/**
 * The next sentence's speech is requested while the current one plays (a look-ahead of one
 * sentence). When that look-ahead request fails part-way, before any of its audio was played,
 * its buffered audio is dropped and the sentence is asked once more of the same provider: the
 * listener hears each sentence once, whole. Before, the buffered start of the sentence was played
 * and then the failure applied the route's midStream rule: with the default (`'error'`) the turn
 * ended mid-sentence; with `'resume'` the next provider spoke the sentence from its start, so its
 * first 100 ms were heard twice. The server speaks OpenAI's wire on its own (loopback node:http):
 * the first sentence's audio is held half-sent until the look-ahead's retry arrives, so the
 * failure always happens while the first sentence plays.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { type TurnEvent, voiceTurn } from '../../src/index.js';
import { deferred } from '../helpers/deferred.js';
import { collectUnhandledRejections } from '../helpers/unhandled-rejections.js';
import {
  answerSpeech,
  answerTranscript,
  CHAT_END,
  chatFrame,
  speechInput,
  turnRouter,
  turnWire,
} from './turn-wire.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
const FIRST = 'Your table is booked.';
const SECOND = 'We will see you at eight tonight.';
/** Each sentence's audio: 9,600 bytes (200 ms of 24 kHz PCM s16le), told apart by their bytes. */
const FIRST_AUDIO = new Uint8Array(9_600).fill(0x11);
const SECOND_AUDIO = new Uint8Array(9_600).fill(0x22);

async function* microphone(): AsyncGenerator<Uint8Array> {
  yield new Uint8Array(3_200).fill(1);
}

const unhandled = collectUnhandledRejections();

/**
 * Speech: the first sentence sends half its audio and the rest only once a third speech request
 * came; the second sentence's first request sends 4,800 bytes of its audio and closes the
 * connection (its Content-Length says 9,600); any later request for it is answered whole.
 */
async function providers(midStream?: 'resume') {
  const retried = deferred();
  let speeches = 0;
  const wire = await turnWire(async (req, res: ServerResponse) => {
    if (req.path.endsWith('/audio/transcriptions')) return answerTranscript(res, 'Book a table');
    if (req.path.endsWith('/chat/completions')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        `${chatFrame({ role: 'assistant', content: '' })}${chatFrame({ content: `${FIRST} ${SECOND}` })}${CHAT_END}`,
      );
      return;
    }
    const call = ++speeches;
    if (call >= 3) retried.resolve();
    const text = speechInput(req);
    if (text === FIRST) {
      res.writeHead(200, { 'content-type': 'audio/pcm', 'content-length': '9600' });
      res.write(FIRST_AUDIO.subarray(0, 4_800));
      await retried.promise;
      res.end(FIRST_AUDIO.subarray(4_800));
    } else if (call === 2) {
      res.writeHead(200, { 'content-type': 'audio/pcm', 'content-length': '9600' });
      res.write(SECOND_AUDIO.subarray(0, 4_800), () => res.socket?.end());
    } else answerSpeech(res, SECOND_AUDIO);
  });
  const router = turnRouter(wire.url, midStream ? { tts: { providers: ['a'], midStream } } : {});
  return { wire, router };
}

describe('voiceTurn: the look-ahead sentence fails part-way before it is played', () => {
  for (const midStream of [undefined, 'resume'] as const) {
    it(`is asked again and heard once, whole (midStream ${midStream ?? 'default'})`, async () => {
      const { wire, router } = await providers(midStream);
      const turn = voiceTurn(router, {
        audio: microphone(),
        format: FORMAT,
        messages: [],
        model: 'f',
        voice: 'v',
      });
      const events: TurnEvent[] = [];
      for await (const event of turn) events.push(event);
      const result = await turn.result;

      const audio = events.flatMap((e) => (e.type === 'audio' ? [e.chunk] : []));
      expect(Buffer.concat(audio.map((c) => c.data)).equals(Buffer.concat([FIRST_AUDIO, SECOND_AUDIO]))).toBe(
        true,
      );
      expect(audio.filter((c) => c.discontinuity)).toEqual([]);
      expect(wire.requests.filter((r) => r.path.endsWith('/audio/speech')).map(speechInput)).toEqual([
        FIRST,
        SECOND,
        SECOND,
      ]);
      expect(result.stages.tts?.attempts.map((a) => [a.provider, a.outcome])).toEqual([['a', 'success']]);
      expect(unhandled).toEqual([]);
    });
  }
});
