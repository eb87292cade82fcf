/**
 * Barge-in while the turn waits on a muted microphone: the caller's audio iterator has a
 * `next()` pending that will not resolve (a muted track yields nothing), and the turn is
 * aborted before any end of speech. As for a single stt() call, the caller's iterator is
 * returned at once, `turn.remainingAudio` is empty (a conversation that passes it on to the
 * next turn is not held), and the STT provider's socket is closed. Before the fix the STT
 * stage's `return()` of the turn's audio reader was queued behind the pending read (an async
 * generator runs one request at a time): the microphone was never returned and
 * `remainingAudio`, like the next turn reading it, waited forever.
 * Deepgram is a loopback `ws` server of this test speaking the listen wire on its own.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { AbortError, voiceTurn } from '../../src/index.js';
import { deferred } from '../helpers/deferred.js';
import { answerChat, httpServer, router, wsServer } from './wire/servers.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
/** 100 ms of 16 kHz PCM s16le. */
const CHUNK = 3_200;

/** A microphone that gives one chunk and is then muted: its second `next()` never settles. */
function mutedMic() {
  const muted = deferred();
  const returned = deferred();
  const state = { pulls: 0, returns: 0 };
  const iterable: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => ({
      next: () => {
        state.pulls++;
        if (state.pulls === 1) return Promise.resolve({ done: false, value: new Uint8Array(CHUNK).fill(7) });
        muted.resolve();
        return new Promise<IteratorResult<Uint8Array>>(() => {});
      },
      return: () => {
        state.returns++;
        returned.resolve();
        return Promise.resolve({ done: true, value: undefined });
      },
    }),
  };
  return { iterable, state, muted: muted.promise, returned: returned.promise };
}

/** A Deepgram listen server that takes audio and says nothing; `heard` resolves at the first audio. */
async function silentDeepgram() {
  const heard = deferred();
  const closed = deferred();
  const session = { bytes: 0 };
  const wire = await wsServer((ws) => {
    ws.on('message', (data, binary) => {
      if (!binary) return;
      session.bytes += (data as Buffer).byteLength;
      heard.resolve();
    });
    ws.on('close', () => closed.resolve());
  });
  return { wire, session, heard: heard.promise, closed: closed.promise };
}

describe('voiceTurn: barge-in while the microphone is muted', () => {
  it("returns the caller's iterator at once, remainingAudio is empty, the STT socket closes, the next turn runs", async () => {
    const dg = await silentDeepgram();
    const chat = await httpServer((_req, res) => answerChat(res, 'Yes.'));
    const r = router({
      providers: {
        dg: {
          kind: 'deepgram',
          baseUrl: dg.wire.url,
          apiKey: ['test', 'key'].join('-'),
          stt: { model: 'nova-3' },
        },
        llm: {
          kind: 'openai-compatible',
          baseUrl: `${chat.url}/v1`,
          chat: { models: { fast: 'm' } },
          tts: { voices: { agent: 'x' } },
        },
      },
      routes: { stt: { providers: ['dg'] }, chat: { providers: ['llm'] }, tts: { providers: ['llm'] } },
    });
    const mic = mutedMic();
    const bargeIn = new AbortController();
    const turn = voiceTurn(r, {
      audio: mic.iterable,
      format: FORMAT,
      messages: [],
      model: 'fast',
      voice: 'agent',
      signal: bargeIn.signal,
    });
    const ended = (async () => {
      for await (const _event of turn) throw new Error('no event was expected');
    })().then(
      () => undefined,
      (error: unknown) => error,
    );
    await Promise.all([dg.heard, mic.muted]);
    bargeIn.abort();

    const error = await ended;
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).partialOutput).toBe(false);
    await expect(turn.result).rejects.toBe(error);
    await mic.returned;
    await dg.closed;
    expect(mic.state).toEqual({ pulls: 2, returns: 1 });
    expect(dg.session.bytes).toBe(CHUNK);
    const rest: unknown[] = [];
    for await (const chunk of turn.remainingAudio) rest.push(chunk);
    expect(rest).toEqual([]);
    expect(getEventListeners(bargeIn.signal, 'abort')).toEqual([]);

    // The conversation goes on with what the turn left (nothing): the next turn is not held.
    const next = voiceTurn(r, {
      audio: turn.remainingAudio,
      format: FORMAT,
      messages: [],
      model: 'fast',
      voice: 'agent',
    });
    const events: unknown[] = [];
    for await (const event of next) events.push(event);
    expect(events).toEqual([]);
    expect((await next.result).transcript).toBe('');
    expect(mic.state).toEqual({ pulls: 2, returns: 1 });
  }, 5_000);
});
