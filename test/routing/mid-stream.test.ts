import { describe, expect, it } from 'vitest';
import {
  type AudioChunk,
  type ChatEvent,
  createRouter,
  MidStreamError,
  type RouterConfig,
  type TranscriptEvent,
} from '../../src/index.js';
import {
  createOpenAiCompatibleMock,
  type MockScript,
  mockSpeechPcm,
  type OpenAiCompatibleMock,
  startMockServer,
} from '../../src/testing/index.js';

async function pair(a: OpenAiCompatibleMock, b: OpenAiCompatibleMock, routes: RouterConfig['routes']) {
  const [sa, sb] = await Promise.all([startMockServer({ provider: a }), startMockServer({ provider: b })]);
  const provider = (url: string) => ({
    kind: 'openai-compatible' as const,
    baseUrl: `${url}/v1`,
    chat: { models: { fast: 'm' }, continueFinalMessage: true },
    tts: { voices: { agent: 'alloy' } },
    stt: { model: 's' },
  });
  const router = createRouter({ providers: { a: provider(sa.url), b: provider(sb.url) }, routes });
  return {
    router,
    close: async () => {
      await router.close();
      await Promise.all([sa.close(), sb.close()]);
    },
  };
}

const concat = (parts: Uint8Array[]) => Buffer.concat(parts.map((p) => Buffer.from(p)));

describe("tts midStream 'resume'", () => {
  const sentences = ['Hello there, friend. ', 'How are you today? ', 'Fine, thanks.'];
  const text = sentences.join('');

  for (const k of [1, 2, 3]) {
    it(`resumes on the next provider from the first sentence not fully delivered, which keeps the rest of the call (A fails after ${k} chunk(s) of sentence 2)`, async () => {
      // A answers sentence 1 whole, then resets after k chunks of sentence 2.
      const speech: MockScript[] = [{ chunkBytes: 4800 }, { chunkBytes: 4800, resetAfterChunks: k }];
      const a = createOpenAiCompatibleMock({ script: { speech } });
      const b = createOpenAiCompatibleMock({ script: { speech: { chunkBytes: 4800 } } });
      const t = await pair(a, b, {
        tts: { providers: ['a', 'b'], strategy: 'priority', midStream: 'resume' },
      });
      try {
        const chunks: AudioChunk[] = [];
        const stream = t.router.tts({ text, voice: 'agent' });
        for await (const c of stream) chunks.push(c);
        const switches = chunks.flatMap((c, i) => (c.discontinuity ? [i] : []));
        expect(switches).toHaveLength(1);
        const [s1, s2, s3] = sentences.map((s) => mockSpeechPcm(s.trim()));
        const bytes = (from: number, to?: number) => concat(chunks.slice(from, to).map((c) => c.data));
        // Before the switch: sentence 1 whole, then the k chunks of sentence 2 that A sent.
        expect(bytes(0, switches[0]).equals(concat([s1!, s2!.subarray(0, 4800 * k)]))).toBe(true);
        // B takes sentence 2 over, whole, and keeps sentence 3; no sentence skipped.
        expect(bytes(switches[0]!).equals(concat([s2!, s3!]))).toBe(true);
        // Sentence 3 may have reached A as look-ahead (requested when sentence 2's first byte
        // arrived) before the failure cancelled it: none of that request was heard, and A is
        // not asked for it again.
        const spokenByA = a.requests.map((r) => (r.body as { input: string }).input);
        expect(spokenByA.slice(0, 2)).toEqual([sentences[0]!.trim(), sentences[1]!.trim()]);
        expect(spokenByA.slice(2).every((s) => s === sentences[2])).toBe(true);
        expect([0, 1]).toContain(spokenByA.length - 2);
        expect(b.requests.map((r) => (r.body as { input: string }).input)).toEqual([
          sentences[1]!.trim(),
          sentences[2]!,
        ]);
        const result = await stream.result;
        expect(result.provider).toBe('b');
        expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
          ['a', 'failed'],
          ['b', 'success'],
        ]);
      } finally {
        await t.close();
      }
    });
  }

  it("C28: by default (midStream 'error'), a TTS failure after output ends the stream with MidStreamError", async () => {
    const a = createOpenAiCompatibleMock({ script: { speech: [{}, { resetAfterChunks: 1 }] } });
    const b = createOpenAiCompatibleMock();
    const t = await pair(a, b, { tts: { providers: ['a', 'b'], strategy: 'priority' } });
    try {
      let error: unknown;
      try {
        for await (const _ of t.router.tts({ text, voice: 'agent' })) {
          // drain
        }
      } catch (e) {
        error = e;
      }
      expect(MidStreamError.isInstance(error)).toBe(true);
      expect(b.requests).toHaveLength(0);
    } finally {
      await t.close();
    }
  });

  it('speaks streamed text sentence by sentence as the sentences complete', async () => {
    const a = createOpenAiCompatibleMock();
    const t = await pair(a, createOpenAiCompatibleMock(), {
      tts: { providers: ['a'], strategy: 'priority' },
    });
    try {
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      async function* tokens() {
        yield 'Hello ';
        yield 'there. How';
        await gate;
        yield ' are you?';
      }
      const seen: number[] = [];
      for await (const _ of t.router.tts({ text: tokens(), voice: 'agent' })) {
        seen.push(a.requests.length);
        release();
      }
      // The first sentence was synthesized before the rest of the text existed.
      expect(seen[0]).toBe(1);
      expect(a.requests.map((r) => (r.body as { input: string }).input)).toEqual([
        'Hello there.',
        'How are you?',
      ]);
    } finally {
      await t.close();
    }
  });
});

describe("stt midStream 'replay'", () => {
  it('replays the audio since the last final to the next provider: no final repeated, no word lost', async () => {
    // speaches dialect: one delta per segment, then done. A resets after its first delta.
    const a = createOpenAiCompatibleMock({
      dialect: 'speaches',
      transcript: 'ask not. what your country.',
      script: { transcription: { resetAfterChunks: 1 } },
    });
    const b = createOpenAiCompatibleMock({ transcript: 'ask not what your country can do for you' });
    const t = await pair(a, b, { stt: { providers: ['a', 'b'], strategy: 'priority', midStream: 'replay' } });
    try {
      const pcm = new Uint8Array(32000).map((_, i) => i % 200);
      async function* audio() {
        yield pcm.subarray(0, 16001);
        yield pcm.subarray(16001);
      }
      const events: TranscriptEvent[] = [];
      const stream = t.router.stt({
        audio: audio(),
        format: { encoding: 'pcm_s16le', sampleRate: 16000 },
        interim: true,
      });
      for await (const e of stream) events.push(e);
      expect(events.filter((e) => e.type === 'final')).toEqual([
        { type: 'final', text: 'ask not what your country can do for you', startMs: 0, endMs: 1000 },
      ]);
      expect(events[0]).toMatchObject({ type: 'partial', text: 'ask not.' });
      expect((await stream.result).provider).toBe('b');
      expect(b.requests).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});

describe("chat midStream 'continue'", () => {
  it('sends the partial reply to the next provider as the start of its answer', async () => {
    const a = createOpenAiCompatibleMock({
      chat: { deltas: ['The answer ', 'is', ' 4.'] },
      script: { chat: { resetAfterChunks: 2 } },
    });
    const b = createOpenAiCompatibleMock({ chat: { deltas: ['is 4.'] } });
    const t = await pair(a, b, {
      chat: { providers: ['a', 'b'], strategy: 'priority', midStream: 'continue' },
    });
    try {
      const events: ChatEvent[] = [];
      for await (const e of t.router.chat({
        messages: [{ role: 'user', content: 'What is 2+2?' }],
        model: 'fast',
      })) {
        events.push(e);
      }
      const text = events.map((e) => (e.type === 'text-delta' ? e.text : '')).join('');
      expect(text).toBe('The answer is 4.');
      expect(events.filter((e) => e.type === 'finish')).toHaveLength(1);
      expect((b.requests[0]!.body as { messages: unknown[] }).messages).toEqual([
        { role: 'user', content: 'What is 2+2?' },
        { role: 'assistant', content: 'The answer ' },
      ]);
    } finally {
      await t.close();
    }
  });
});
