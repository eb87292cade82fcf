/**
 * Streamed text that opens with a sentence or clause with nothing to speak ("\n\n", as many
 * LLMs start a reply; "...", a code fence line) did start the TTS attempt's clock there: its
 * first-chunk deadline (and hedge delay, and time to first chunk) ran while the LLM was still
 * writing the first clause the provider could speak, so a first clause slower than the deadline
 * failed the provider over (or the call, on a route of one) with nothing spoken and a failure
 * charged to a provider that had not been asked anything. The clock now starts at the first
 * request with something to speak (sentence providers) or the first clause end after text with
 * something to speak (streamed-text providers). The servers speak OpenAI's speech wire and
 * Cartesia's WebSocket on their own (loopback); the router's clock is a fake one moved by the
 * test.
 */
import { describe, expect, it } from 'vitest';
import type { Router } from '../../src/index.js';
import { deferred } from '../helpers/deferred.js';
import { until } from '../helpers/until.js';
import { FakeClock } from '../transport/fake-clock.js';
import { cartesiaStreamedTextServer } from './wire/cartesia-streamed-text-server.js';
import { answerPcm, concat, httpServer, pcmSignal, readBody, router } from './wire/servers.js';

const AUDIO = pcmSignal(2400, 24_000, 7);
const FIRST_CHUNK_MS = 100;
/** Longer than the first-chunk deadline, shorter than the 400 ms after which held text is spoken. */
const LLM_WRITING_MS = 300;

/** The LLM's reply: `lead`, then the first words, then (once `gate` opens) the end of the first sentence. */
async function* reply(lead: string, gate: Promise<void>): AsyncGenerator<string> {
  yield lead;
  yield 'Let me check';
  await gate;
  yield ' that for you.';
}

/**
 * Runs a tts() call of `reply(lead)`: once `started()` holds (the provider has the first words),
 * the LLM writes for LLM_WRITING_MS on the router's clock before the sentence ends. The call
 * must neither fail nor fall back meanwhile; returns its audio and result.
 */
async function speakAfterSlowFirstClause(r: Router, clock: FakeClock, lead: string, started: () => boolean) {
  // The adapter's code loaded: the attempt starts at once (its clock would wait for a load).
  await r.warmup();
  const gate = deferred();
  const attempts: string[] = [];
  r.on('attempt', (e) => attempts.push(e.provider));
  const stream = r.tts({ text: reply(lead, gate.promise), voice: 'v' });
  const chunks: Uint8Array[] = [];
  let failure: unknown;
  const done = (async () => {
    for await (const chunk of stream) chunks.push(chunk.data);
  })().catch((error: unknown) => {
    failure = error;
  });
  await until(() => attempts.length === 1 && started(), 'the attempt with the first words');
  await new Promise((resolve) => setImmediate(resolve));
  clock.advance(LLM_WRITING_MS);
  await new Promise((resolve) => setImmediate(resolve));
  expect(failure).toBeUndefined();
  gate.resolve();
  await done;
  expect(failure).toBeUndefined();
  expect(attempts).toEqual(['a']);
  return { audio: concat(chunks), result: await stream.result };
}

describe('the TTS clock does not start at text with nothing to speak', () => {
  for (const lead of ['\n\n', '...', '```\n']) {
    it(`OpenAI speech (a request per sentence): a reply opening with ${JSON.stringify(lead)}`, async () => {
      const inputs: string[] = [];
      const wire = await httpServer(async (req, res) => {
        inputs.push((JSON.parse((await readBody(req)).toString()) as { input: string }).input);
        answerPcm(res, AUDIO);
      });
      const clock = new FakeClock();
      const r = router(
        {
          providers: {
            a: { kind: 'openai-compatible', baseUrl: `${wire.url}/v1`, tts: { voices: { v: 'x' } } },
          },
          routes: { tts: { providers: ['a'], firstChunkTimeoutMs: FIRST_CHUNK_MS } },
        },
        { clock },
      );
      const { audio, result } = await speakAfterSlowFirstClause(r, clock, lead, () => true);
      expect(inputs).toEqual(['Let me check that for you.']);
      expect(audio.equals(AUDIO)).toBe(true);
      expect(result.attempts.map((a) => a.outcome)).toEqual(['success']);
    });
  }

  it('Cartesia WebSocket (streamed text): a reply opening with "\\n\\n"', async () => {
    const { wire, transcripts, spoken } = await cartesiaStreamedTextServer(AUDIO);
    const clock = new FakeClock();
    const r = router(
      {
        providers: {
          a: {
            kind: 'cartesia',
            baseUrl: wire.url,
            apiKey: 'k',
            tts: { voices: { v: 'voice-id' }, transport: 'websocket', addTimestamps: false },
          },
        },
        routes: { tts: { providers: ['a'], firstChunkTimeoutMs: FIRST_CHUNK_MS } },
      },
      { clock },
    );
    const { audio } = await speakAfterSlowFirstClause(r, clock, '\n\n', () =>
      transcripts.includes('Let me check'),
    );
    expect(transcripts.join('')).toBe('Let me check that for you.');
    expect(spoken.length).toBe(4);
    expect(audio.equals(Buffer.concat(spoken))).toBe(true);
  });
});
