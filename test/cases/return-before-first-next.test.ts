/**
 * A stream ended by its iterator's `return()` (or `throw()`) before the first `next()`: how a
 * consumer that took the iterator drops a reply the user talked over before its playback began.
 * Its `result` settles at once, as after a `break`, instead of waiting forever: a tts(), stt() or
 * chat() stream resolves with no attempt (`provider: ''`), a voice turn rejects with AbortError
 * ('The voice turn was abandoned') and leaves all of the caller's audio in `remainingAudio`. No
 * provider is contacted: the loopback server (OpenAI's wire on node:http) sees no request.
 */
import { describe, expect, it } from 'vitest';
import { AbortError, type RouteResult, voiceTurn } from '../../src/index.js';
import { answerChat, answerPcm, httpServer, router } from './wire/servers.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000 } as const;
const NO_ATTEMPT: RouteResult = { provider: '', attempts: [], timeToFirstChunkMs: 0, durationMs: 0 };

/** `promise`'s outcome, or 'pending' when it has not settled within one turn of the event loop. */
async function outcome(promise: Promise<unknown>): Promise<unknown> {
  const pending = new Promise((resolve) => setImmediate(() => resolve('pending')));
  return Promise.race([
    promise.then(
      (value) => ({ resolved: value }),
      (error: unknown) => ({ rejected: error }),
    ),
    pending,
  ]);
}

/** Caller audio of three 100 ms chunks, recording whether the router returned its iterator. */
function callerAudio() {
  const chunks = [new Uint8Array(3200).fill(1), new Uint8Array(3200).fill(2), new Uint8Array(3200).fill(3)];
  const state = { pulled: 0, returned: false };
  const audio: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => ({
      next: async () =>
        state.pulled < chunks.length
          ? { value: chunks[state.pulled++]!, done: false }
          : { value: undefined, done: true },
      return: async () => {
        state.returned = true;
        return { value: undefined, done: true };
      },
    }),
  };
  return { chunks, state, audio };
}

async function openAiRouter() {
  const server = await httpServer((req, res) => {
    req.resume();
    if (req.url?.endsWith('/chat/completions')) answerChat(res, 'Sure.');
    else if (req.url?.endsWith('/audio/speech')) answerPcm(res, Buffer.alloc(4800));
    else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"text":"Book a table."}');
    }
  });
  const r = router({
    providers: {
      a: {
        kind: 'openai-compatible',
        baseUrl: server.url,
        chat: { models: { fast: 'm' } },
        tts: { model: 't', voices: { agent: 'v' } },
        stt: { model: 's' },
      },
    },
    routes: { chat: { providers: ['a'] }, tts: { providers: ['a'] }, stt: { providers: ['a'] } },
  });
  return { server, r };
}

describe('return() or throw() before the first next() settles result and contacts no provider', () => {
  for (const how of ['return', 'throw'] as const) {
    it(`tts and chat: ${how}() before next() resolves result with no attempt`, async () => {
      const { server, r } = await openAiRouter();
      for (const stream of [
        r.tts({ text: 'Your table is booked.', voice: 'agent' }),
        r.chat({ model: 'fast', messages: [{ role: 'user', content: 'Book a table.' }] }),
      ]) {
        const iterator = (stream as AsyncIterable<unknown>)[Symbol.asyncIterator]();
        if (how === 'return') expect(await iterator.return!()).toEqual({ done: true, value: undefined });
        else await expect(iterator.throw!(new Error('dropped'))).rejects.toThrow('dropped');
        expect(await outcome(stream.result)).toEqual({ resolved: NO_ATTEMPT });
        expect(await iterator.next()).toEqual({ done: true, value: undefined });
      }
      expect(server.hits).toBe(0);
    });
  }

  it('stt: return() before next() resolves result with no attempt and returns the caller audio iterator', async () => {
    const { server, r } = await openAiRouter();
    const { state, audio } = callerAudio();
    const stream = r.stt({ audio, format: FORMAT });
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.return!();
    expect(await outcome(stream.result)).toEqual({ resolved: NO_ATTEMPT });
    expect(state).toEqual({ pulled: 0, returned: true });
    expect(server.hits).toBe(0);
  });

  it('the result read before return() settles too', async () => {
    const { server, r } = await openAiRouter();
    const stream = r.tts({ text: 'Your table is booked.', voice: 'agent' });
    const result = stream.result;
    await stream[Symbol.asyncIterator]().return!();
    expect(await outcome(result)).toEqual({ resolved: NO_ATTEMPT });
    expect(server.hits).toBe(0);
  });

  it('voiceTurn: return() before next() rejects result with AbortError and leaves all audio remaining', async () => {
    const { server, r } = await openAiRouter();
    const { chunks, state, audio } = callerAudio();
    const turn = voiceTurn(r, { audio, format: FORMAT, messages: [], model: 'fast', voice: 'agent' });
    const iterator = turn[Symbol.asyncIterator]();
    await iterator.return!();
    const settled = (await outcome(turn.result)) as { rejected: unknown };
    expect(settled.rejected).toBeInstanceOf(AbortError);
    expect(settled.rejected).toMatchObject({ message: 'The voice turn was abandoned', partialOutput: false });
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
    const remaining: Uint8Array[] = [];
    for await (const chunk of turn.remainingAudio) remaining.push(chunk as Uint8Array);
    expect(remaining).toEqual(chunks);
    expect(state.pulled).toBe(3);
    expect(server.hits).toBe(0);
  });
});
