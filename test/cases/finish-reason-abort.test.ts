/**
 * A stream that the server stopped rather than ended: vLLM finishes a request its engine
 * aborted (shutdown, scale-down, sleep mode) with `finish_reason: "abort"` and then `[DONE]`,
 * the same end as a complete answer; gateways (OpenRouter) end a generation that failed upstream
 * with `finish_reason: "error"`. Neither is a complete answer: before any output the router falls
 * back as for an HTTP error status; after output the call ends with MidStreamError, never with a
 * clean `finish`. The same holds for vLLM's streamed transcription chunks. Servers speak the wire
 * on their own (loopback).
 */
import { describe, expect, it } from 'vitest';
import { MidStreamError, ProviderError } from '../../src/index.js';
import {
  answerChat,
  batchStt,
  chatChunk,
  chatPair,
  drain,
  httpServer,
  pcmSignal,
  pieces,
  readBody,
  router,
  sseFrames,
} from './wire/servers.js';

/** One vLLM `transcription.chunk` with `content` and a finish reason. */
function transcriptionChunk(content: string, finish: string | null = null): unknown {
  return {
    id: 'trsc-case',
    object: 'transcription.chunk',
    created: 1,
    model: 'openai/whisper-large-v3',
    choices: [{ delta: { content }, finish_reason: finish, stop_reason: null }],
  };
}

/** A server that answers every request with `body` as a 200 SSE stream. */
function sseServer(body: string) {
  return httpServer(async (req, res) => {
    await readBody(req);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(body);
  });
}

describe('finish reason abort or error: the server stopped the stream, it did not end it', () => {
  for (const reason of ['abort', 'error']) {
    it(`chat: a role-only delta then finish_reason '${reason}' and [DONE] falls back before any output`, async () => {
      const a = await sseServer(
        sseFrames([chatChunk({ role: 'assistant', content: '' }), chatChunk({}, reason), '[DONE]']),
      );
      const b = await httpServer(async (req, res) => {
        await readBody(req);
        answerChat(res, 'Table booked.');
      });
      const r = router(chatPair('openai-compatible', a.url, b.url, 'unused'));
      const stream = r.chat({ messages: [{ role: 'user', content: 'Book a table.' }], model: 'fast' });
      const { items, error } = await drain(stream);
      expect(error).toBeUndefined();
      expect(items).toEqual([
        { type: 'text-delta', text: 'Table booked.' },
        { type: 'finish', finishReason: 'stop' },
      ]);
      const result = await stream.result;
      expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
        ['a', 'failed'],
        ['b', 'success'],
      ]);
      const failed = result.attempts[0]!.error;
      expect(ProviderError.isInstance(failed)).toBe(true);
      expect(failed).toMatchObject({ providerCode: reason, retryable: true, partialOutput: false });
      expect((failed as Error).message).toBe(
        `Provider 'a' ended the stream with finish reason '${reason}': the server stopped the generation before its end`,
      );
      expect([a.hits, b.hits]).toEqual([1, 1]);
    });

    it(`chat: text then finish_reason '${reason}' and [DONE] ends in MidStreamError, not a finish`, async () => {
      const a = await sseServer(
        sseFrames([
          chatChunk({ role: 'assistant', content: '' }),
          chatChunk({ content: 'The answer is' }),
          chatChunk({ content: '' }, reason),
          '[DONE]',
        ]),
      );
      const r = router({
        providers: { a: { kind: 'openai-compatible', baseUrl: a.url, chat: { models: { fast: 'm' } } } },
        routes: { chat: { providers: ['a'], firstChunkTimeoutMs: false } },
      });
      const { items, error } = await drain(
        r.chat({ messages: [{ role: 'user', content: 'What is 2 + 2?' }], model: 'fast' }),
      );
      expect(items).toEqual([{ type: 'text-delta', text: 'The answer is' }]);
      expect(MidStreamError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ partialOutput: true, partialText: 'The answer is' });
      const cause = (error as MidStreamError).attempts[0]!.error;
      expect(ProviderError.isInstance(cause)).toBe(true);
      expect(cause).toMatchObject({ providerCode: reason, retryable: true, partialOutput: true });
    });
  }

  it("stt: vLLM transcription chunks then finish_reason 'abort' and [DONE] fall back to the next provider", async () => {
    const a = await sseServer(
      sseFrames([transcriptionChunk(' ask not'), transcriptionChunk(' what', 'abort'), '[DONE]']),
    );
    const b = await batchStt('ask not what your country can do for you');
    const r = router({
      providers: {
        a: { kind: 'openai-compatible', baseUrl: a.url, stt: { model: 'whisper', streaming: true } },
        b: { kind: 'openai-compatible', baseUrl: b.url, stt: { model: 'whisper', streaming: false } },
      },
      routes: { stt: { providers: ['a', 'b'], strategy: 'priority', firstChunkTimeoutMs: false } },
    });
    const speech = pcmSignal(16_000, 16_000, 3);
    const stream = r.stt({
      audio: pieces(speech, 3200),
      format: { encoding: 'pcm_s16le', sampleRate: 16_000 },
    });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(items).toEqual([
      { type: 'final', text: 'ask not what your country can do for you', startMs: 0, endMs: 1000 },
    ]);
    const result = await stream.result;
    expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'failed'],
      ['b', 'success'],
    ]);
    expect(result.attempts[0]!.error).toMatchObject({ providerCode: 'abort', retryable: true });
    expect(b.uploads).toHaveLength(1);
    expect(b.uploads[0]!.equals(speech)).toBe(true);
  });
});
