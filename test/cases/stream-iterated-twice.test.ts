/**
 * The stream a call returns (tts(), stt(), chat(), voiceTurn()) can be iterated once. A second
 * `for await` over the same object throws a RequestError of field 'stream' whose message says
 * what to do, at once: it yields nothing and contacts no provider again; the first iteration's
 * items and `result` are untouched. So does a second iteration of a call that failed before any
 * provider (a bad request). The server speaks OpenAI's chat, speech and transcription wire on
 * its own (node:http) and counts every request.
 */
import { describe, expect, it } from 'vitest';
import { RequestError, voiceTurn } from '../../src/index.js';
import { answerChat, answerPcm, drain, httpServer, pcmSignal, router } from './wire/servers.js';

const MESSAGES = [{ role: 'user' as const, content: 'Book a table for four.' }];
const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000 } as const;
const ROUTED =
  "Invalid request field 'stream': this RoutedStream was already iterated; a stream can be iterated only once (call router.tts(), stt() or chat() again for a new call)";
const TURN =
  "Invalid request field 'stream': this VoiceTurn was already iterated; a stream can be iterated only once (call voiceTurn() again for a new turn)";

/** An OpenAI-compatible provider over a server counting requests, and a router over it. */
async function setup() {
  const wire = await httpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url?.endsWith('/chat/completions')) answerChat(res, 'Booked.');
      else if (req.url?.endsWith('/audio/transcriptions')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"text":"A table for four."}');
      } else answerPcm(res, pcmSignal(2400, 24_000, 3));
    });
  });
  const r = router({
    providers: {
      a: {
        kind: 'openai-compatible',
        baseUrl: `${wire.url}/v1`,
        chat: { models: { fast: 'm' } },
        tts: { voices: { agent: 'v' } },
        stt: { model: 'w', streaming: false },
      },
    },
    routes: { tts: { providers: ['a'] }, chat: { providers: ['a'] }, stt: { providers: ['a'] } },
  });
  return { r, wire };
}

async function* speech(): AsyncGenerator<Uint8Array> {
  yield pcmSignal(1600, 16_000, 1);
}

/** Iterates `stream` a second time: the error thrown, and the items yielded (none expected). */
async function again(stream: AsyncIterable<unknown>): Promise<{ items: unknown[]; error: unknown }> {
  return drain(stream);
}

/** Asserts that `error` is the RequestError of a second iteration, with `message`. */
function expectIteratedTwice(error: unknown, message: string): void {
  expect(error).toBeInstanceOf(RequestError);
  const e = error as RequestError;
  expect([e.name, e.code, e.field, e.message, e.retryable, e.partialOutput]).toEqual([
    'RequestError',
    'REQUEST_INVALID',
    'stream',
    message,
    false,
    false,
  ]);
}

describe('a call’s stream iterated a second time', () => {
  it('chat(): the second for-await throws RequestError (stream), no second request', async () => {
    const { r, wire } = await setup();
    const stream = r.chat({ model: 'fast', messages: MESSAGES });
    const first = await drain(stream);
    expect(first.error).toBeUndefined();
    expect(first.items).toEqual([
      { type: 'text-delta', text: 'Booked.' },
      { type: 'finish', finishReason: 'stop' },
    ]);
    const second = await again(stream);
    expect(second.items).toEqual([]);
    expectIteratedTwice(second.error, ROUTED);
    expect(wire.hits).toBe(1);
    expect((await stream.result).provider).toBe('a');
  });

  it('tts(): the second for-await throws RequestError (stream), no second request', async () => {
    const { r, wire } = await setup();
    const stream = r.tts({ text: 'Your table is booked.', voice: 'agent' });
    const first = await drain(stream);
    expect(first.error).toBeUndefined();
    expect(first.items.length).toBeGreaterThan(0);
    const second = await again(stream);
    expect(second.items).toEqual([]);
    expectIteratedTwice(second.error, ROUTED);
    expect(wire.hits).toBe(1);
  });

  it('stt(): the second for-await throws RequestError (stream), no second request', async () => {
    const { r, wire } = await setup();
    const stream = r.stt({ audio: speech(), format: FORMAT });
    const first = await drain(stream);
    expect(first.error).toBeUndefined();
    expect(first.items).toEqual([expect.objectContaining({ type: 'final', text: 'A table for four.' })]);
    const second = await again(stream);
    expect(second.items).toEqual([]);
    expectIteratedTwice(second.error, ROUTED);
    expect(wire.hits).toBe(1);
  });

  it('while the first iteration runs: the second throws at once and the first goes on', async () => {
    const { r, wire } = await setup();
    const stream = r.chat({ model: 'fast', messages: MESSAGES });
    const iterator = stream[Symbol.asyncIterator]();
    const firstItem = iterator.next();
    expectIteratedTwice((await again(stream)).error, ROUTED);
    expect(await firstItem).toEqual({ done: false, value: { type: 'text-delta', text: 'Booked.' } });
    expect(await iterator.next()).toEqual({ done: false, value: { type: 'finish', finishReason: 'stop' } });
    expect((await iterator.next()).done).toBe(true);
    expect(wire.hits).toBe(1);
  });

  it('a call that failed before any provider (bad request): the second iteration throws the same RequestError (stream)', async () => {
    const { r, wire } = await setup();
    const stream = r.chat({ model: 'nope', messages: MESSAGES });
    const first = await drain(stream);
    expect((first.error as RequestError).field).toBe('model');
    expectIteratedTwice((await again(stream)).error, ROUTED);
    expect(wire.hits).toBe(0);
  });

  it('voiceTurn(): the second for-await throws RequestError (stream), no second request', async () => {
    const { r, wire } = await setup();
    const turn = voiceTurn(r, {
      audio: speech(),
      format: FORMAT,
      messages: MESSAGES,
      model: 'fast',
      voice: 'agent',
    });
    const first = await drain(turn);
    expect(first.error).toBeUndefined();
    const hits = wire.hits;
    expect(hits).toBe(3);
    const second = await again(turn);
    expect(second.items).toEqual([]);
    expectIteratedTwice(second.error, TURN);
    expect(wire.hits).toBe(hits);
  });
});
