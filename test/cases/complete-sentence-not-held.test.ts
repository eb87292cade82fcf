/**
 * A complete sentence (or first clause) of streamed text goes to an HTTP TTS provider the
 * moment its closing white space arrives, not when the next token does: an LLM that says a
 * filler sentence and then thinks for seconds must not leave the caller in silence. Each test
 * holds the next token on a promise it controls and checks that the provider's request
 * arrived before releasing it. The servers speak OpenAI's wire on their own (loopback).
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { RequestError, type RouterConfig, voiceTurn } from '../../src/index.js';
import { deferred } from '../helpers/deferred.js';
import {
  answerPcm,
  chatChunk,
  concat,
  drain,
  httpServer,
  pcmSignal,
  readBody,
  router,
  sseFrames,
} from './wire/servers.js';
import { voiceTurnConfig } from './wire/voice-turn-config.js';

const AUDIO = pcmSignal(2400, 24_000, 5);

/** An OpenAI speech server: records each request's input, answers AUDIO; `asked(n)` waits for n inputs. */
async function speech() {
  const inputs: string[] = [];
  const waiting: Array<{ n: number; resolve: () => void }> = [];
  const wire = await httpServer(async (req, res) => {
    inputs.push((JSON.parse((await readBody(req)).toString()) as { input: string }).input);
    for (const w of waiting.filter((w) => w.n <= inputs.length)) w.resolve();
    answerPcm(res, AUDIO);
  });
  const asked = (n: number) =>
    inputs.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ n, resolve }));
  const config: RouterConfig = {
    providers: { a: { kind: 'openai-compatible', baseUrl: `${wire.url}/v1`, tts: { voices: { v: 'x' } } } },
    routes: { tts: { providers: ['a'], firstChunkTimeoutMs: false } },
  };
  return { wire, inputs, config, asked };
}

describe('a complete sentence of streamed text is not held for the next token', () => {
  // LLM tokens carry their white space in front: the punctuation is usually the last character.
  for (const first of [
    'Hello there. ',
    'Hello there.',
    'Let me check that for you.',
    'Hello there, ',
    'Hello there,',
    'Sure!',
    'Okay.\n',
  ]) {
    it(`sends ${JSON.stringify(first)} before the next token arrives`, async () => {
      const { asked, inputs, config } = await speech();
      const next = deferred();
      async function* llm() {
        yield first;
        await next.promise;
        yield ' Next sentence here.';
      }
      const stream = router(config).tts({ text: llm(), voice: 'v' });
      const out = drain(stream);
      await asked(1);
      expect(inputs).toEqual([first.trim()]);
      next.resolve();
      const { items, error } = await out;
      expect(error).toBeUndefined();
      expect(inputs).toEqual([first.trim(), 'Next sentence here.']);
      expect(concat(items.map((c) => c.data)).equals(Buffer.concat([AUDIO, AUDIO]))).toBe(true);
    });
  }

  it('waits after an abbreviation, or a number that may go on', async () => {
    for (const [held, rest] of [
      ['Please ask Dr.', ' who knows.'],
      ['It costs 3.', '5 dollars.'],
    ] as const) {
      const { wire, inputs, config } = await speech();
      const next = deferred();
      let read = 0;
      async function* llm() {
        yield held;
        read++;
        await next.promise;
        yield rest;
      }
      const out = drain(router(config).tts({ text: llm(), voice: 'v' }));
      // Wait until the source is read up to its pause: the splitter had nothing to release.
      while (read === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect([read, wire.hits]).toEqual([1, 0]);
      next.resolve();
      expect((await out).error).toBeUndefined();
      expect(inputs).toEqual([held + rest]);
    }
  });

  it('speaks the complete sentence, then surfaces the text source failure', async () => {
    const { asked, inputs, config } = await speech();
    const next = deferred();
    async function* llm() {
      yield 'Hello there.';
      await next.promise;
      yield ' never';
    }
    const stream = router(config).tts({ text: llm(), voice: 'v' });
    const out = drain(stream);
    await asked(1);
    next.reject(new Error('LLM socket died'));
    const { items, error } = await out;
    expect(concat(items.map((c) => c.data)).equals(AUDIO)).toBe(true);
    expect(inputs).toEqual(['Hello there.']);
    expect(RequestError.isInstance(error)).toBe(true);
    expect((error as RequestError).field).toBe('text');
    expect((error as Error).message).toContain("the caller's text stream threw (Error: LLM socket died)");
    // Audio was yielded before the failure: the error says so, as every error after output does.
    expect((error as RequestError).partialOutput).toBe(true);
  });

  it('a text source that fails before any sentence is complete: RequestError, partialOutput false, nothing asked', async () => {
    const { inputs, config } = await speech();
    async function* llm() {
      yield 'Hello';
      throw new Error('LLM socket died');
    }
    const { items, error } = await drain(router(config).tts({ text: llm(), voice: 'v' }));
    expect(items).toEqual([]);
    expect(inputs).toEqual([]);
    expect([RequestError.isInstance(error), (error as RequestError).field]).toEqual([true, 'text']);
    expect((error as RequestError).partialOutput).toBe(false);
  });
});

describe('voiceTurn: a filler sentence followed by a pause', () => {
  it('is spoken while the LLM pauses', async () => {
    const release = deferred();
    const ttsInputs: string[] = [];
    let replyHeld!: () => void;
    const held = new Promise<void>((resolve) => {
      replyHeld = resolve;
    });
    const wire = await httpServer(async (req, res: ServerResponse) => {
      const body = await readBody(req);
      if (req.url?.endsWith('/audio/transcriptions')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"text":"Is there a table?"}');
      } else if (req.url?.endsWith('/chat/completions')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(
          sseFrames([
            chatChunk({ role: 'assistant', content: '' }),
            chatChunk({ content: 'Let me check' }),
            chatChunk({ content: ' that for you.' }),
          ]),
        );
        replyHeld();
        await release.promise;
        res.end(
          sseFrames([chatChunk({ content: ' Yes, we have one at seven.' }), chatChunk({}, 'stop'), '[DONE]']),
        );
      } else {
        ttsInputs.push((JSON.parse(body.toString()) as { input: string }).input);
        answerPcm(res, AUDIO);
      }
    });
    const r = router(voiceTurnConfig(wire.url));
    async function* mic() {
      for (let i = 0; i < 3; i++) yield new Uint8Array(3200);
    }
    const turn = voiceTurn(r, {
      audio: mic(),
      format: { encoding: 'pcm_s16le', sampleRate: 16_000 },
      messages: [],
      model: 'f',
      voice: 'v',
    });
    const events: string[] = [];
    let releasedAt = -1;
    for await (const e of turn) {
      if (e.type === 'audio' && releasedAt < 0) {
        // The filler's audio arrived while the chat stream still holds the rest of the reply.
        releasedAt = events.length;
        await held;
        expect(ttsInputs).toEqual(['Let me check that for you.']);
        release.resolve();
      }
      events.push(e.type === 'reply-delta' ? `delta:${e.text}` : e.type);
    }
    expect(events.slice(0, releasedAt)).toEqual(['transcript', 'delta:Let me check', 'delta: that for you.']);
    expect(ttsInputs).toEqual(['Let me check that for you.', 'Yes, we have one at seven.']);
    const result = await turn.result;
    expect(result.reply).toBe('Let me check that for you. Yes, we have one at seven.');
    expect(result.timeline.firstClauseMs).toBeLessThanOrEqual(result.timeline.firstAudioMs!);
  });
});
