/**
 * A voice turn's iterator `return()` while a `next()` is pending (a framework racing the turn's
 * iterator against barge-in, as it may a routed call's): the turn stops at once. The pending
 * `next()` resolves done, the chat request's connection closes, `result` rejects with
 * AbortError, and no provider is charged. Before the fix the turn's iterator was an async
 * generator, which queues `return()` behind the pending `next()`: with the LLM stalled before
 * its first token, `return()` never settled and the chat stream stayed open. `return()` before
 * the first `next()` left `result` pending forever. The servers are this test's own loopback
 * node:http servers speaking OpenAI's wire.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { AbortError, voiceTurn } from '../../src/index.js';
import { deferred } from '../helpers/deferred.js';
import { chatAnswer, httpServer, readBody, router } from './wire/servers.js';
import { voiceTurnConfig } from './wire/voice-turn-config.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
const CHUNK = new Uint8Array(3_200).fill(3);

async function* audio(): AsyncGenerator<Uint8Array> {
  yield CHUNK;
}

/** STT answers "hi"; the first chat request gets its headers and then nothing (`stalled`), later ones a reply. */
async function providers() {
  const stalled = deferred<ServerResponse>();
  const chatClosed = deferred();
  let chats = 0;
  const wire = await httpServer(async (req, res) => {
    await readBody(req);
    if (req.url?.endsWith('/audio/transcriptions')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"text":"hi"}');
    } else if (req.url?.endsWith('/chat/completions')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (++chats > 1) {
        res.end(chatAnswer('Hello.'));
        return;
      }
      res.flushHeaders();
      res.on('close', () => chatClosed.resolve());
      stalled.resolve(res);
    } else {
      res.writeHead(200, { 'content-type': 'audio/pcm' });
      res.end(Buffer.alloc(480));
    }
  });
  const config = voiceTurnConfig(wire.url);
  config.routes.chat = { providers: ['a'], firstChunkTimeoutMs: false };
  return { wire, r: router(config), stalled: stalled.promise, chatClosed: chatClosed.promise };
}

const request = { format: FORMAT, messages: [], model: 'f', voice: 'v' };

describe('voiceTurn: return() of its iterator while a next() is pending', () => {
  it('stops the turn at once: the next() resolves done, chat closes, result rejects, nobody charged; the next turn runs', async () => {
    const { r, stalled, chatClosed } = await providers();
    const turn = voiceTurn(r, { ...request, audio: audio() });
    const events = turn[Symbol.asyncIterator]();
    const first = await events.next();
    expect(first.done === false && first.value.type).toBe('transcript');
    const pending = events.next();
    await stalled; // chat was asked and sends nothing

    expect(await events.return?.()).toEqual({ done: true, value: undefined });
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(await events.next()).toEqual({ done: true, value: undefined });
    await chatClosed;
    const error = await turn.result.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).message).toBe('The voice turn was abandoned');
    expect((error as AbortError).partialOutput).toBe(true);
    const chat = r.stats().providers.find((p) => p.capability === 'chat')!;
    expect([chat.breaker, chat.errors]).toEqual(['closed', 0]);

    const next = voiceTurn(r, { ...request, audio: audio() });
    const types: string[] = [];
    for await (const event of next) types.push(event.type);
    expect((await next.result).reply).toBe('Hello.');
    expect(types.slice(0, 2)).toEqual(['transcript', 'reply-delta']);
  });

  it('return() before the first next(): result rejects with AbortError, no provider is contacted, the audio is all remaining', async () => {
    const { wire, r } = await providers();
    const turn = voiceTurn(r, { ...request, audio: audio() });
    const events = turn[Symbol.asyncIterator]();
    expect(await events.return?.()).toEqual({ done: true, value: undefined });
    const error = await turn.result.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).partialOutput).toBe(false);
    expect(await events.next()).toEqual({ done: true, value: undefined });
    const rest: unknown[] = [];
    for await (const chunk of turn.remainingAudio) rest.push(chunk);
    expect(rest).toEqual([CHUNK]);
    expect(wire.hits).toBe(0);
  });
});
