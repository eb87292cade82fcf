/**
 * A reply cut short: the text the caller was shown is spoken up to its last complete sentence,
 * then the failure surfaces. A complete sentence shorter than the clause minimum (20
 * characters) is held to be joined to the next clause; when the text then fails, it must still
 * be spoken ("Sure. I can book that. " then a reset: "I can book that." was shown, so it is
 * heard). An unfinished sentence is not spoken; after a barge-in nothing more is. The servers
 * speak OpenAI's wire on their own (loopback).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { AbortError, MidStreamError, RequestError, type RouterConfig, voiceTurn } from '../../src/index.js';
import { ClauseSplitter } from '../../src/text/clause-splitter.js';
import { deferred } from '../helpers/deferred.js';
import { startWithBackup } from '../helpers/streamed-tts.js';
import { sonicPrimary } from '../providers/cartesia/helpers.js';
import {
  answerPcm,
  chatChunk,
  concat,
  drain,
  httpServer,
  pcmSignal,
  readBody,
  recordingSpeechServer,
  router,
  sseFrames,
} from './wire/servers.js';
import { voiceTurnConfig } from './wire/voice-turn-config.js';

const AUDIO = pcmSignal(2400, 24_000, 7);

/** Resolves when `inputs` holds `n` items (checked each time `bump` is called). */
function counter(inputs: string[]) {
  const waiting: Array<{ n: number; resolve: () => void }> = [];
  return {
    bump() {
      for (const w of waiting.filter((w) => w.n <= inputs.length)) w.resolve();
    },
    reach: (n: number) =>
      inputs.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ n, resolve })),
  };
}

/**
 * One loopback server for the three stages: STT answers "book a table"; chat streams `tokens`,
 * the first one alone, the rest once TTS was asked for the first sentence, then `ending`;
 * TTS records each input and answers AUDIO.
 */
async function turnServer(tokens: string[], ending: 'done' | 'reset' | 'hold', cut: Promise<void>) {
  const ttsInputs: string[] = [];
  const asked = counter(ttsInputs);
  let chatClosed!: () => void;
  const chatGone = new Promise<void>((resolve) => {
    chatClosed = resolve;
  });
  const wire = await httpServer(async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    if (req.url?.endsWith('/audio/transcriptions')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"text":"book a table"}');
    } else if (req.url?.endsWith('/chat/completions')) {
      res.on('close', chatClosed);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const [first, ...rest] = tokens;
      res.write(sseFrames([chatChunk({ role: 'assistant', content: '' }), chatChunk({ content: first })]));
      await asked.reach(1);
      res.write(sseFrames(rest.map((content) => chatChunk({ content }))));
      await cut;
      if (ending === 'done') res.end(sseFrames([chatChunk({}, 'stop'), '[DONE]']));
      else if (ending === 'reset') res.socket?.destroy();
    } else {
      ttsInputs.push((JSON.parse(body.toString()) as { input: string }).input);
      asked.bump();
      answerPcm(res, AUDIO);
    }
  });
  const config = voiceTurnConfig(wire.url);
  return { ttsInputs, config, chatGone };
}

async function* mic() {
  yield new Uint8Array(3200);
}

/** Runs a turn; `onDelta(reply so far)` is called at each reply delta. */
async function runTurn(config: RouterConfig, onDelta: (reply: string) => void, signal?: AbortSignal) {
  const turn = voiceTurn(router(config), {
    audio: mic(),
    format: { encoding: 'pcm_s16le', sampleRate: 16_000 },
    messages: [{ role: 'system', content: 'x' }],
    model: 'f',
    voice: 'v',
    ...(signal ? { signal } : {}),
  });
  turn.result.catch(() => {});
  let reply = '';
  const audio: Uint8Array[] = [];
  const order: string[] = [];
  let error: unknown;
  try {
    for await (const e of turn) {
      if (e.type === 'reply-delta') {
        reply += e.text;
        order.push('delta');
        onDelta(reply);
      } else if (e.type === 'audio') {
        audio.push(e.chunk.data);
        order.push('audio');
      }
    }
  } catch (e) {
    error = e;
  }
  return { reply, audio: concat(audio), order, error, result: turn.result };
}

describe('voiceTurn: chat cut after a short complete sentence', () => {
  it('speaks every complete sentence shown, then throws the MidStreamError', async () => {
    const cut = deferred();
    const { ttsInputs, config } = await turnServer(
      ['Sure. ', 'I can ', 'book ', 'that. '],
      'reset',
      cut.promise,
    );
    const { reply, audio, order, error } = await runTurn(config, (r) => {
      if (r.endsWith('that. ')) cut.resolve();
    });
    expect(reply).toBe('Sure. I can book that. ');
    expect(ttsInputs).toEqual(['Sure.', 'I can book that.']);
    expect(MidStreamError.isInstance(error)).toBe(true);
    expect((error as MidStreamError).partialText).toBe('Sure. I can book that. ');
    // Both sentences' audio reached the caller before the error.
    expect(audio.equals(Buffer.concat([AUDIO, AUDIO]))).toBe(true);
    expect(order.filter((e) => e === 'delta')).toHaveLength(4);
  });

  it('does not speak an unfinished sentence after the last complete one', async () => {
    const cut = deferred();
    const { ttsInputs, config } = await turnServer(
      ['Sure. ', 'I can book that. ', 'For what', ' time'],
      'reset',
      cut.promise,
    );
    const { reply, audio, error } = await runTurn(config, (r) => {
      if (r.endsWith(' time')) cut.resolve();
    });
    expect(reply).toBe('Sure. I can book that. For what time');
    expect(ttsInputs).toEqual(['Sure.', 'I can book that.']);
    expect(MidStreamError.isInstance(error)).toBe(true);
    expect(audio.equals(Buffer.concat([AUDIO, AUDIO]))).toBe(true);
  });

  it('speaks a short final sentence when chat ends normally', async () => {
    const cut = deferred();
    const { ttsInputs, config } = await turnServer(['Sure. ', 'I can book that.'], 'done', cut.promise);
    const { reply, audio, error, result } = await runTurn(config, (r) => {
      if (r.endsWith('that.')) cut.resolve();
    });
    expect(error).toBeUndefined();
    expect(reply).toBe('Sure. I can book that.');
    expect(ttsInputs).toEqual(['Sure.', 'I can book that.']);
    expect(audio.equals(Buffer.concat([AUDIO, AUDIO]))).toBe(true);
    expect((await result).reply).toBe('Sure. I can book that.');
  });

  it('speaks nothing more after a barge-in', async () => {
    const { ttsInputs, config, chatGone } = await turnServer(
      ['Sure. ', 'I can ', 'book ', 'that. '],
      'hold',
      new Promise(() => {}),
    );
    const bargeIn = new AbortController();
    const { reply, error, result } = await runTurn(
      config,
      (r) => {
        if (r.endsWith('that. ')) bargeIn.abort();
      },
      bargeIn.signal,
    );
    expect(reply).toBe('Sure. I can book that. ');
    expect(AbortError.isInstance(error)).toBe(true);
    await expect(result).rejects.toBeInstanceOf(AbortError);
    // The chat request was cancelled; TTS was never asked for the held sentence.
    await chatGone;
    expect(ttsInputs).toEqual(['Sure.']);
  });
});

describe('tts(): a text stream that fails after a short complete sentence', () => {
  it('speaks the held sentence, then fails with the RequestError of the text', async () => {
    const { wire, inputs } = await recordingSpeechServer(AUDIO);
    const config: RouterConfig = {
      providers: { a: { kind: 'openai-compatible', baseUrl: `${wire.url}/v1`, tts: { voices: { v: 'x' } } } },
      routes: { tts: { providers: ['a'] } },
    };
    async function* llm() {
      yield 'Sure. ';
      yield 'I can book that. ';
      yield 'For what';
      throw new Error('LLM socket died');
    }
    const { items, error } = await drain(router(config).tts({ text: llm(), voice: 'v' }));
    expect(inputs).toEqual(['Sure.', 'I can book that.']);
    expect(concat(items.map((c) => c.data)).equals(Buffer.concat([AUDIO, AUDIO]))).toBe(true);
    expect(RequestError.isInstance(error)).toBe(true);
    expect((error as RequestError).field).toBe('text');
  });
});

describe('ClauseSplitter.cutShort', () => {
  it('returns the complete sentences held back, without the unfinished rest', () => {
    const s = new ClauseSplitter();
    expect(s.push('Sure. ')).toEqual(['Sure. ']);
    expect(s.push('I can do it. ')).toEqual([]);
    expect(s.push('Ok. For what')).toEqual([]);
    expect(s.cutShort()).toEqual(['I can do it. Ok. ']);
    expect(s.end()).toEqual([]);
  });

  it('returns nothing when only an unfinished sentence or clause is held', () => {
    const s = new ClauseSplitter();
    expect(s.push('Sure. ')).toEqual(['Sure. ']);
    expect(s.push('Yes, for')).toEqual([]);
    expect(s.cutShort()).toEqual([]);
  });
});

describe('tts() into a provider that takes text as a stream: the text fails after complete sentences', () => {
  type Wire = { transcript?: string; continue?: boolean; flush?: boolean };
  async function* llm(last: string) {
    yield 'Sure. ';
    yield 'I can book that. ';
    if (last !== '') yield last;
    throw new Error('LLM socket died');
  }

  it('ends the context so the provider speaks them, then fails with the RequestError of the text', async () => {
    const { router: r, primary: sonic, ec2 } = await startWithBackup(sonicPrimary());
    const { items, error } = await drain(r.tts({ text: llm(''), voice: 'agent' }));
    expect(RequestError.isInstance(error)).toBe(true);
    expect((error as RequestError).field).toBe('text');
    const sent = (sonic.sockets[0]!.messages as Wire[]).map((m) => [m.transcript, m.continue]);
    // The input was ended (continue: false) after both sentences: nothing was cancelled.
    expect(sent.map(([t]) => t).join('')).toBe('Sure. I can book that. ');
    expect(sent[sent.length - 1]).toEqual(['', false]);
    expect(items.length).toBeGreaterThan(0);
    expect(ec2.requests).toHaveLength(0);
  });

  it('after an unfinished sentence not yet sent: the complete ones are spoken, the unfinished one is never sent', async () => {
    const { router: r, primary: sonic } = await startWithBackup(sonicPrimary());
    const { items, error } = await drain(r.tts({ text: llm('For what'), voice: 'agent' }));
    expect(RequestError.isInstance(error)).toBe(true);
    const sent = (sonic.sockets[0]!.messages as Wire[]).map((m) => [m.transcript, m.continue]);
    // "For what" failed before it was forwarded: it is never sent, and the input ends after
    // the complete sentences (the unfinished text forwarded first: caller-text-fails-after-complete-clauses).
    expect(sent.map(([t]) => t).join('')).toBe('Sure. I can book that. ');
    expect(sent[sent.length - 1]).toEqual(['', false]);
    expect(items.length).toBeGreaterThan(0);
  });
});
