/**
 * A barge-in by the turn's signal settles `result` at the abort, while the caller's loop holds
 * an event (playing it) and has not asked for the next: a handler that aborts and then awaits
 * `result` (to keep the partial reply in the history) went on waiting until the loop's next
 * `next()`, and forever when the loop had stopped asking (a framework that drops the stream at a
 * barge-in). The iterator then throws that same AbortError. The server speaks OpenAI's wire on
 * its own (loopback node:http).
 */
import { getEventListeners } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { AbortError, voiceTurn } from '../../src/index.js';
import { deferred } from '../helpers/deferred.js';
import { collectUnhandledRejections } from '../helpers/unhandled-rejections.js';
import { answerSpeech, answerTranscript, chatFrame, turnRouter, turnWire } from './turn-wire.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;

async function* microphone(): AsyncGenerator<Uint8Array> {
  yield new Uint8Array(3_200).fill(1);
}

const unhandled = collectUnhandledRejections();

/** STT hears "Book a table"; chat streams one sentence and stays open; TTS speaks it. */
async function providers() {
  const chatClosed = deferred<'chat closed'>();
  const wire = await turnWire((req, res: ServerResponse) => {
    if (req.path.endsWith('/audio/transcriptions')) return answerTranscript(res, 'Book a table');
    if (req.path.endsWith('/chat/completions')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chatFrame({ role: 'assistant', content: '' }));
      res.write(chatFrame({ content: 'Your table is booked.' }));
      res.on('close', () => chatClosed.resolve('chat closed'));
      return;
    }
    answerSpeech(res, new Uint8Array(4_800).fill(7));
  });
  return { router: turnRouter(wire.url), chatClosed: chatClosed.promise };
}

describe('voiceTurn: a barge-in while the caller holds an event', () => {
  it('rejects result at the abort, before the stages have closed, with the error the iterator then throws', async () => {
    const { router, chatClosed } = await providers();
    const bargeIn = new AbortController();
    const turn = voiceTurn(router, {
      audio: microphone(),
      format: FORMAT,
      messages: [],
      model: 'f',
      voice: 'v',
      signal: bargeIn.signal,
    });
    const events = turn[Symbol.asyncIterator]();
    for (let r = await events.next(); !r.done && r.value.type !== 'audio'; r = await events.next()) {
      // read up to the first audio chunk, which the caller is now playing
    }
    bargeIn.abort();
    // `result` settles in the abort; the chat socket's close is an I/O event, after it.
    const first = await Promise.race([
      turn.result.then(
        () => 'resolved',
        (e: unknown) => e,
      ),
      chatClosed,
    ]);
    expect(first).toBeInstanceOf(AbortError);
    expect((first as AbortError).message).toBe('The voice turn was aborted');
    expect((first as AbortError).partialOutput).toBe(true);
    expect(await chatClosed).toBe('chat closed');
    const thrown = await events.next().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(thrown).toBe(first);
    expect(await events.next()).toEqual({ done: true, value: undefined });
    expect(getEventListeners(bargeIn.signal, 'abort')).toEqual([]);
    expect(unhandled).toEqual([]);
  });

  it('a caller that never asks again still gets result, and the stages close', async () => {
    const { router, chatClosed } = await providers();
    const bargeIn = new AbortController();
    const turn = voiceTurn(router, {
      audio: microphone(),
      format: FORMAT,
      messages: [],
      model: 'f',
      voice: 'v',
      signal: bargeIn.signal,
    });
    const events = turn[Symbol.asyncIterator]();
    expect((await events.next()).value).toMatchObject({ type: 'transcript' });
    expect((await events.next()).value).toEqual({ type: 'reply-delta', text: 'Your table is booked.' });
    bargeIn.abort();
    const error = await turn.result.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).partialOutput).toBe(true);
    await chatClosed;
    expect(unhandled).toEqual([]);
  });
});
