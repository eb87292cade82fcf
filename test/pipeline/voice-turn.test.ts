import { afterEach, describe, expect, it } from 'vitest';
import {
  AbortError,
  createRouter,
  RequestError,
  type Router,
  type RouterConfig,
  TimeoutError,
  type TurnEvent,
  voiceTurn,
} from '../../src/index.js';
import {
  type ChatReply,
  createOpenAiCompatibleMock,
  type MockScript,
  mockSpeechPcm,
  type OpenAiCompatibleMock,
  startMockServer,
} from '../../src/testing/index.js';

const FORMAT = { encoding: 'pcm_s16le' as const, sampleRate: 16_000, channels: 1 as const };
const DELTAS = ['Sure', ',', ' your', ' table', ' is', ' booked', '.', ' See', ' you', ' at', ' eight', '.'];

/** 200 ms of caller audio in 20 ms pieces. */
async function* callerAudio(): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < 10; i++) yield new Uint8Array(640);
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

interface Options {
  transcript?: string;
  chat?: ChatReply;
  chatScripts?: MockScript[];
  routes?: RouterConfig['routes'];
}

/** Providers a (and b) on loopback mock servers, each serving stt, chat and tts. */
async function setup(
  o: Options = {},
): Promise<{ router: Router; a: OpenAiCompatibleMock; b: OpenAiCompatibleMock }> {
  const make = (i: number) =>
    createOpenAiCompatibleMock({
      transcript: o.transcript ?? 'Book a table for two.',
      chat: o.chat ?? { deltas: DELTAS },
      ...(o.chatScripts ? { script: { chat: o.chatScripts[i] ?? {} } } : {}),
    });
  const a = make(0);
  const b = make(1);
  const [sa, sb] = await Promise.all([startMockServer({ provider: a }), startMockServer({ provider: b })]);
  const provider = (url: string) => ({
    kind: 'openai-compatible' as const,
    baseUrl: `${url}/v1`,
    chat: { models: { fast: 'm' } },
    tts: { voices: { agent: 'alloy' } },
    stt: { model: 's' },
  });
  const router = createRouter({
    providers: { a: provider(sa.url), b: provider(sb.url) },
    routes: o.routes ?? {
      stt: { providers: ['a'], strategy: 'priority' },
      chat: { providers: ['a'], strategy: 'priority' },
      tts: { providers: ['a'], strategy: 'priority' },
    },
  });
  close = async () => {
    await router.close();
    await Promise.all([sa.close(), sb.close()]);
  };
  return { router, a, b };
}

const request = (extra: Partial<Parameters<typeof voiceTurn>[1]> = {}) => ({
  audio: callerAudio(),
  format: FORMAT,
  messages: [{ role: 'system' as const, content: 'You book tables.' }],
  model: 'fast',
  voice: 'agent',
  ...extra,
});

const speechInputs = (m: OpenAiCompatibleMock) =>
  m.requests.filter((r) => r.path.endsWith('/audio/speech')).map((r) => (r.body as { input: string }).input);
const chatRequests = (m: OpenAiCompatibleMock) =>
  m.requests.filter((r) => r.path.endsWith('/chat/completions'));

describe('voiceTurn', () => {
  it('chains stt finals -> chat with the transcript appended -> clause-streamed tts, with a timeline', async () => {
    const { router, a } = await setup();
    const turn = voiceTurn(router, request());
    const events: TurnEvent[] = [];
    for await (const e of turn) events.push(e);
    const result = await turn.result;

    expect(result.transcript).toBe('Book a table for two.');
    expect(result.reply).toBe(DELTAS.join(''));
    // The order of events: the transcript, then reply deltas, and audio only after the first clause.
    const kinds = events.map((e) => e.type);
    expect(kinds[0]).toBe('transcript');
    expect(kinds.indexOf('reply-delta')).toBeGreaterThan(0);
    expect(kinds.indexOf('audio')).toBeGreaterThan(kinds.indexOf('reply-delta'));
    expect(events.filter((e) => e.type === 'reply-delta').map((e) => e.text)).toEqual(DELTAS);
    // The transcript was appended to the history as the user's message.
    const body = chatRequests(a)[0]!.body as { messages: { role: string; content: string }[] };
    expect(body.messages).toEqual([
      { role: 'system', content: 'You book tables.' },
      { role: 'user', content: 'Book a table for two.' },
    ]);
    // TTS got the reply clause by clause ("Sure, " alone is below the first chunk's minimum).
    expect(speechInputs(a)).toEqual(['Sure, your table is booked.', 'See you at eight.']);
    const audio = Buffer.concat(events.flatMap((e) => (e.type === 'audio' ? [e.chunk.data] : [])));
    expect(
      audio.equals(
        Buffer.concat([mockSpeechPcm('Sure, your table is booked.'), mockSpeechPcm('See you at eight.')]),
      ),
    ).toBe(true);
    const t = result.timeline;
    expect(t.endOfSpeechMs).toBeLessThanOrEqual(t.finalTranscriptMs);
    expect(t.finalTranscriptMs).toBeLessThanOrEqual(t.firstTokenMs!);
    expect(t.firstTokenMs!).toBeLessThanOrEqual(t.firstClauseMs!);
    expect(t.firstClauseMs!).toBeLessThanOrEqual(t.firstAudioMs!);
    expect(t.ownMs).toBeGreaterThanOrEqual(0);
    expect(t.ownMs).toBeLessThan(t.firstAudioMs! - t.endOfSpeechMs);
    expect(result.stages.stt.provider).toBe('a');
    expect(result.stages.chat!.provider).toBe('a');
    expect(result.stages.tts!.provider).toBe('a');
  });

  it('an empty transcript ends the turn without calling chat or tts', async () => {
    const { router, a } = await setup({ transcript: '   ' });
    const turn = voiceTurn(router, request());
    const events: TurnEvent[] = [];
    for await (const e of turn) events.push(e);
    const result = await turn.result;
    expect(result.transcript).toBe('');
    expect(result.reply).toBe('');
    expect(result.toolCalls).toEqual([]);
    expect(result.stages.chat).toBeUndefined();
    expect(result.stages.tts).toBeUndefined();
    expect(events.every((e) => e.type === 'transcript')).toBe(true);
    expect(chatRequests(a)).toHaveLength(0);
    expect(speechInputs(a)).toEqual([]);
    expect(result.timeline.firstAudioMs).toBeUndefined();
    expect(result.timeline.ownMs).toBe(0);
  });

  it('a reply that is only tool calls: nothing is spoken, result.toolCalls has them in order', async () => {
    const { router, a } = await setup({
      chat: {
        toolCalls: [
          { name: 'book', arguments: '{"table":2}' },
          { id: 'call_x', name: 'notify', arguments: '{}' },
        ],
      },
    });
    const turn = voiceTurn(router, request());
    const events: TurnEvent[] = [];
    for await (const e of turn) events.push(e);
    const result = await turn.result;
    expect(result.reply).toBe('');
    expect(result.toolCalls).toEqual([
      { id: 'call_0', name: 'book', arguments: '{"table":2}' },
      { id: 'call_x', name: 'notify', arguments: '{}' },
    ]);
    expect(result.stages.tts).toBeUndefined();
    expect(result.stages.chat!.provider).toBe('a');
    expect(speechInputs(a)).toEqual([]);
    expect(events.filter((e) => e.type !== 'transcript')).toEqual([]);
    // As documented on TurnTimeline: no "first" fields, ownMs 0.
    const { firstTokenMs, firstClauseMs, firstAudioMs, ownMs } = result.timeline;
    expect([firstTokenMs, firstClauseMs, firstAudioMs, ownMs]).toEqual([undefined, undefined, undefined, 0]);
  });

  it('tools: the chat stage offers the request’s tools to the model, whose calls come back in result.toolCalls', async () => {
    // A model makes tool calls only when it is offered tools: without `tools` on the turn,
    // result.toolCalls could never fill on a real provider.
    const { router, a } = await setup({ chat: { toolCalls: [{ name: 'book', arguments: '{"table":2}' }] } });
    const book = {
      name: 'book',
      description: 'Books a table.',
      parameters: { type: 'object', properties: { table: { type: 'number' } } },
    };
    const turn = voiceTurn(router, request({ tools: [book] }));
    for await (const _ of turn);
    const result = await turn.result;
    expect(result.toolCalls).toEqual([{ id: 'call_0', name: 'book', arguments: '{"table":2}' }]);
    const bodies = chatRequests(a).map((r) => (r.body as { tools?: unknown }).tools);
    expect(bodies).toEqual([
      [
        {
          type: 'function',
          function: {
            name: 'book',
            description: 'Books a table.',
            parameters: { type: 'object', properties: { table: { type: 'number' } } },
          },
        },
      ],
    ]);
  });

  it('tools: a malformed tool is a RequestError naming it before any provider is contacted', async () => {
    const { router, a } = await setup();
    const turn = voiceTurn(router, request({ tools: [{ name: '', parameters: { type: 'object' } }] }));
    let error: unknown;
    try {
      for await (const _ of turn);
    } catch (e) {
      error = e;
    }
    expect(RequestError.isInstance(error)).toBe(true);
    expect((error as RequestError).field).toBe('tools.0.name');
    expect(a.requests).toEqual([]);
  });

  it('barge-in (signal) at the first audio chunk: nothing is yielded after it, AbortError, stages closed', async () => {
    const { router, a } = await setup();
    const abort = new AbortController();
    const turn = voiceTurn(router, request({ signal: abort.signal }));
    const after: TurnEvent[] = [];
    let aborted = false;
    let error: unknown;
    try {
      for await (const e of turn) {
        if (aborted) after.push(e);
        if (e.type === 'audio' && !aborted) {
          aborted = true;
          abort.abort();
        }
      }
    } catch (e) {
      error = e;
    }
    expect(after).toEqual([]);
    expect(AbortError.isInstance(error)).toBe(true);
    // Transcript, reply and audio had reached the caller: the abort came after output.
    expect((error as AbortError).partialOutput).toBe(true);
    await expect(turn.result).rejects.toBe(error);
    // The second clause was never asked for or its request was cut: never completed.
    expect(speechInputs(a).length).toBeLessThanOrEqual(2);
  });

  it('breaking out of the loop cancels the turn: result rejects with AbortError', async () => {
    const { router } = await setup();
    const turn = voiceTurn(router, request());
    for await (const e of turn) if (e.type === 'reply-delta') break;
    await expect(turn.result).rejects.toSatisfy((e: unknown) => AbortError.isInstance(e));
    await expect(turn.result).rejects.toMatchObject({
      message: 'The voice turn was abandoned',
      partialOutput: true,
    });
  });

  it('a signal aborted before the turn yielded anything: AbortError without partialOutput', async () => {
    const { router } = await setup();
    const abort = new AbortController();
    abort.abort();
    const turn = voiceTurn(router, request({ signal: abort.signal }));
    const events: TurnEvent[] = [];
    let error: unknown;
    try {
      for await (const e of turn) events.push(e);
    } catch (e) {
      error = e;
    }
    expect(events).toEqual([]);
    expect(AbortError.isInstance(error)).toBe(true);
    expect((error as AbortError).message).toBe('The voice turn was aborted');
    expect((error as AbortError).partialOutput).toBe(false);
  });

  it('budgetMs tightens the chat stage: a provider slower than the budget falls back in time', async () => {
    const { router, a, b } = await setup({
      chatScripts: [{ headersDelayMs: 3000 }, {}],
      routes: {
        stt: { providers: ['a'], strategy: 'priority' },
        chat: { providers: ['a', 'b'], strategy: 'priority', firstChunkTimeoutMs: 10_000 },
        tts: { providers: ['a'], strategy: 'priority' },
      },
    });
    const turn = voiceTurn(router, request({ budgetMs: 600 }));
    for await (const _ of turn) {
      // drain
    }
    const result = await turn.result;
    const chat = result.stages.chat!;
    expect(chat.provider).toBe('b');
    expect(chat.attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'failed'],
      ['b', 'success'],
    ]);
    const error = chat.attempts[0]!.error;
    expect(TimeoutError.isInstance(error) && error.phase).toBe('first-chunk');
    // Half of what the budget left (about 600 ms, minus what stt took), never the route's 10 s.
    expect(TimeoutError.isInstance(error) && error.timeoutMs).toBeLessThanOrEqual(300);
    expect(chatRequests(b)).toHaveLength(1);
    expect(chatRequests(a)).toHaveLength(1);
  });

  it('a spent budget never turns a late answer into none: the last chat candidate keeps its route deadline', async () => {
    // Both providers answer after 250 ms; the budget (100 ms) is spent before chat starts.
    const { router, a, b } = await setup({
      chatScripts: [{ headersDelayMs: 250 }, { headersDelayMs: 250 }],
      routes: {
        stt: { providers: ['a'], strategy: 'priority' },
        chat: { providers: ['a', 'b'], strategy: 'priority', firstChunkTimeoutMs: 10_000 },
        tts: { providers: ['a'], strategy: 'priority' },
      },
    });
    const turn = voiceTurn(router, request({ budgetMs: 100 }));
    for await (const _ of turn) {
      // drain
    }
    const result = await turn.result;
    expect(result.reply).toBe(DELTAS.join(''));
    const chat = result.stages.chat!;
    expect(chat.attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'failed'],
      ['b', 'success'],
    ]);
    // The first candidate, with a fallback behind it, got the budget's floor of 50 ms.
    const error = chat.attempts[0]!.error;
    expect(TimeoutError.isInstance(error) && [error.phase, error.timeoutMs]).toEqual(['first-chunk', 50]);
    expect(chatRequests(a)).toHaveLength(1);
    expect(chatRequests(b)).toHaveLength(1);
  });

  it('a malformed request throws a RequestError naming the field, before any provider', async () => {
    const { router, a } = await setup();
    // As tts(), stt() and chat(): the first next() rejects, and so does result.
    const noVoice = voiceTurn(router, request({ voice: '' }));
    await expect(noVoice[Symbol.asyncIterator]().next()).rejects.toThrow(
      new RequestError('voice', 'expected a voice name, got ""'),
    );
    await expect(noVoice.result).rejects.toThrow(new RequestError('voice', 'expected a voice name, got ""'));
    await expect(
      voiceTurn(router, request({ budgetMs: -1 }))
        [Symbol.asyncIterator]()
        .next(),
    ).rejects.toThrow(new RequestError('budgetMs', 'expected a number of ms above 0, got -1'));
    expect(a.requests).toHaveLength(0);
  });

  it('a missing request or router fails at the first step, not with a read of undefined in voiceTurn()', async () => {
    const { router, a } = await setup();
    // voiceTurn(router) threw "Cannot read properties of undefined (reading 'audio')" at the call.
    const noRequest = voiceTurn(router, undefined as never);
    await expect(noRequest[Symbol.asyncIterator]().next()).rejects.toThrow(
      new RequestError('(request)', 'expected a voice turn request object, got undefined'),
    );
    await expect(noRequest.result).rejects.toSatisfy((e: unknown) => RequestError.isInstance(e));
    const noRouter = voiceTurn(undefined as never, request());
    await expect(noRouter[Symbol.asyncIterator]().next()).rejects.toThrow(
      new TypeError('voiceTurn(router, request): router must be a router from createRouter(), got undefined'),
    );
    await expect(noRouter.result).rejects.toThrow(TypeError);
    expect(a.requests).toHaveLength(0);
  });
});
