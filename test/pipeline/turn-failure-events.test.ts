/**
 * A stage that fails mid-reply ends the turn with its error only after the caller has had every
 * event that came before the failure, however far behind its loop is: a player paced at real
 * time (reading the next event once the last one was played) heard the same reply as a fast
 * one. Before, the failure emptied the turn's queue: the slow player lost the whole first
 * sentence, audio the TTS provider had already sent, and got the error at once. A barge-in still
 * drops what is queued. The server speaks OpenAI's wire on its own (loopback node:http).
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { AbortError, MidStreamError, type TurnEvent, voiceTurn } from '../../src/index.js';
import { deferred } from '../helpers/deferred.js';
import { collectUnhandledRejections } from '../helpers/unhandled-rejections.js';
import {
  answerError,
  answerSpeech,
  answerTranscript,
  chatFrame,
  speechInput,
  turnRouter,
  turnWire,
} from './turn-wire.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
const FIRST = 'Your table is booked.';
const SECOND = ' We will see you at eight tonight.';
/** The first sentence's audio: 9,600 bytes (200 ms of 24 kHz PCM s16le). */
const FIRST_AUDIO = new Uint8Array(9_600).fill(0x11);

async function* microphone(): AsyncGenerator<Uint8Array> {
  yield new Uint8Array(3_200).fill(1);
}

const unhandled = collectUnhandledRejections();

/**
 * STT hears "Book a table"; chat streams two sentences and then stays open (the LLM thinking);
 * TTS speaks the first sentence and answers 503 to every later request (the retry included).
 * `chatClosed` resolves when the turn closes the chat request: it has taken the TTS failure in.
 */
async function failingTts() {
  const chatClosed = deferred();
  const wire = await turnWire((req, res: ServerResponse) => {
    if (req.path.endsWith('/audio/transcriptions')) return answerTranscript(res, 'Book a table');
    if (req.path.endsWith('/chat/completions')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chatFrame({ role: 'assistant', content: '' }));
      res.write(chatFrame({ content: FIRST }));
      res.write(chatFrame({ content: SECOND }));
      res.on('close', () => chatClosed.resolve());
      return;
    }
    if (speechInput(req) === FIRST) return answerSpeech(res, FIRST_AUDIO);
    answerError(res, 503);
  });
  const router = turnRouter(wire.url);
  return { wire, router, chatClosed: chatClosed.promise };
}

const request = { audio: microphone(), format: FORMAT, messages: [], model: 'f', voice: 'v' };

describe('voiceTurn: a stage failure after output, with a caller behind its events', () => {
  it('yields every event queued before the failure (all of the first sentence), then throws the failure', async () => {
    const { wire, router, chatClosed } = await failingTts();
    const turn = voiceTurn(router, { ...request, audio: microphone() });
    const events = turn[Symbol.asyncIterator]();
    const first = await events.next();
    expect(first.done === false && first.value.type).toBe('transcript');
    // The player is busy with the first event while the turn fails behind it.
    await chatClosed;

    const rest: TurnEvent[] = [];
    let error: unknown;
    try {
      for (let r = await events.next(); !r.done; r = await events.next()) rest.push(r.value);
    } catch (e) {
      error = e;
    }
    expect(rest.flatMap((e) => (e.type === 'reply-delta' ? [e.text] : []))).toEqual([FIRST, SECOND]);
    const audio = Buffer.concat(rest.flatMap((e) => (e.type === 'audio' ? [e.chunk.data] : [])));
    expect(audio.equals(FIRST_AUDIO)).toBe(true);
    expect(error).toBeInstanceOf(MidStreamError);
    await expect(turn.result).rejects.toBe(error);
    expect(wire.requests.filter((r) => r.path.endsWith('/audio/speech')).map(speechInput)).toEqual([
      FIRST,
      SECOND.trim(),
      SECOND.trim(),
    ]);
    expect(unhandled).toEqual([]);
  });

  it('a barge-in while the caller reads what was queued before the failure: nothing more, AbortError', async () => {
    const { router, chatClosed } = await failingTts();
    const bargeIn = new AbortController();
    const turn = voiceTurn(router, { ...request, audio: microphone(), signal: bargeIn.signal });
    const events = turn[Symbol.asyncIterator]();
    await events.next();
    await chatClosed;
    const second = await events.next();
    expect(second.done === false && second.value).toEqual({ type: 'reply-delta', text: FIRST });
    bargeIn.abort();
    const error = await events.next().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).message).toBe('The voice turn was aborted');
    expect((error as AbortError).partialOutput).toBe(true);
    await expect(turn.result).rejects.toBe(error);
    expect(await events.next()).toEqual({ done: true, value: undefined });
    expect(unhandled).toEqual([]);
  });
});
