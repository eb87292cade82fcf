/**
 * A stream cut after output, which the route tries to continue on the next provider (chat
 * `continue`, TTS `resume`, STT `replay`), where that provider calls its request bad (400, 422:
 * an error that allows no fallback). The caller already holds output, so the stream ends as any
 * stream cut after output does: MidStreamError, `partialOutput: true`, the text delivered, the
 * cut provider's error as `cause`, and the takeover's failure in `attempts` and the message.
 * Before, the takeover's bare ProviderError (`partialOutput: false`, no `partialText`) was
 * thrown, and a caller trusting it would ask the whole request again and get the prefix twice.
 * An abort after output says `partialOutput: true` too. The servers speak each provider's wire on
 * their own (node:http and ws on loopback); each cut waits until the caller has the output.
 */
import { describe, expect, it } from 'vitest';
import {
  AbortError,
  type AudioChunk,
  type ChatEvent,
  MidStreamError,
  ProviderError,
  type TranscriptEvent,
} from '../../src/index.js';
import { Feed, FORMAT, SECOND } from './wire/listen-server.js';
import { chatChunk, httpServer, readBody, router, sseFrames, wsServer } from './wire/servers.js';

/** A gate the test opens once the caller has what it waits for. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

const LEAD = ['The answer ', 'is '];

/** OpenAI chat SSE: the deltas of LEAD, then (once `opened`) the connection dropped. */
const cutChat = (opened: Promise<void>) =>
  httpServer(async (req, res) => {
    await readBody(req);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(
      sseFrames([
        chatChunk({ role: 'assistant', content: '' }),
        ...LEAD.map((t) => chatChunk({ content: t })),
      ]),
    );
    await opened;
    res.socket?.destroy();
  });

/**
 * A server that answers every request with `status` and an error body in Anthropic's shape;
 * `bodies` holds each request's body, in order.
 */
async function refusing(status: number, message: string) {
  const bodies: string[] = [];
  const wire = await httpServer(async (req, res) => {
    bodies.push((await readBody(req)).toString());
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message } }));
  });
  return { ...wire, bodies };
}

/** The attempts of a MidStreamError as [provider, outcome, status of its ProviderError]. */
const attemptsOf = (e: MidStreamError) =>
  e.attempts.map((a) => [
    a.provider,
    a.outcome,
    ProviderError.isInstance(a.error) ? a.error.status : undefined,
  ]);

async function caught<T>(stream: AsyncIterable<T>, each: (item: T) => void): Promise<unknown> {
  try {
    for await (const item of stream) each(item);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('a takeover that calls its request bad after output', () => {
  it.each([400, 422])(
    'chat continue: Anthropic answers %i -> MidStreamError with the partial text',
    async (status) => {
      const { opened, open } = gate();
      const a = await cutChat(opened);
      const b = await refusing(status, 'messages: bad request');
      const r = router({
        providers: {
          a: { kind: 'openai-compatible', baseUrl: `${a.url}/v1`, chat: { models: { f: 'm' } } },
          b: { kind: 'anthropic', baseUrl: b.url, apiKey: 'test-key', chat: { models: { f: 'claude-x' } } },
        },
        routes: { chat: { providers: ['a', 'b'], strategy: 'priority', midStream: 'continue' } },
      });
      const stream = r.chat({ model: 'f', messages: [{ role: 'user', content: 'q' }] });
      const texts: string[] = [];
      const error = await caught(stream, (e: ChatEvent) => {
        if (e.type !== 'text-delta') return;
        texts.push(e.text);
        if (texts.join('') === LEAD.join('')) open();
      });

      expect(texts).toEqual(LEAD);
      expect(b.bodies.map((body) => JSON.parse(body).messages.at(-1))).toEqual([
        { role: 'assistant', content: 'The answer is' },
      ]);
      expect(error).toBeInstanceOf(MidStreamError);
      const mid = error as MidStreamError;
      expect([mid.provider, mid.partialOutput, mid.partialText, mid.toolCalls]).toEqual([
        'a',
        true,
        'The answer is ',
        [],
      ]);
      expect(attemptsOf(mid)).toEqual([
        ['a', 'failed', undefined],
        ['b', 'failed', status],
      ]);
      const refused = mid.attempts[1]!.error as ProviderError;
      expect([refused.provider, refused.partialOutput]).toEqual(['b', false]);
      expect(mid.cause).toBe(mid.attempts[0]!.error);
      expect(mid.message).toBe(
        `Provider 'a' failed after output had started: ${(mid.cause as Error).message}; continuing on 'b' failed: ${refused.message}`,
      );
      await expect(stream.result).rejects.toBe(error);
    },
  );

  it.each([400, 422])(
    'tts resume: the next provider answers %i -> MidStreamError after the audio',
    async (status) => {
      const { opened, open } = gate();
      const sentence = Buffer.alloc(4_800, 1);
      const inputs: string[] = [];
      // a: the first sentence whole; the second: its first bytes, then (once heard) the connection dropped.
      const a = await httpServer(async (req, res, n) => {
        inputs.push((JSON.parse((await readBody(req)).toString()) as { input: string }).input);
        res.writeHead(200, { 'content-type': 'audio/pcm' });
        if (n === 1) {
          res.end(sentence);
          return;
        }
        res.write(sentence);
        await opened;
        res.socket?.destroy();
      });
      const b = await refusing(status, 'input: bad request');
      const r = router({
        providers: {
          a: { kind: 'openai-compatible', baseUrl: `${a.url}/v1`, tts: { voices: { v: 'x' } } },
          b: { kind: 'openai-compatible', baseUrl: `${b.url}/v1`, tts: { voices: { v: 'x' } } },
        },
        routes: { tts: { providers: ['a', 'b'], strategy: 'priority', midStream: 'resume' } },
      });
      const stream = r.tts({ text: 'First sentence here. Second sentence here.', voice: 'v' });
      let bytes = 0;
      const error = await caught(stream, (c: AudioChunk) => {
        bytes += c.data.byteLength;
        if (bytes === 2 * sentence.byteLength) open();
      });

      expect(bytes).toBe(9_600);
      expect(inputs).toEqual(['First sentence here.', 'Second sentence here.']);
      expect(b.bodies.map((body) => JSON.parse(body).input)).toEqual(['Second sentence here.']);
      expect(error).toBeInstanceOf(MidStreamError);
      const mid = error as MidStreamError;
      expect([mid.provider, mid.partialOutput, mid.partialText, mid.toolCalls]).toEqual([
        'a',
        true,
        undefined,
        undefined,
      ]);
      expect(attemptsOf(mid)).toEqual([
        ['a', 'failed', undefined],
        ['b', 'failed', status],
      ]);
      expect(mid.message).toContain(`; continuing on 'b' failed: Provider 'b' answered HTTP ${status}`);
      await expect(stream.result).rejects.toBe(error);
    },
  );

  it.each([400, 422])(
    'stt replay: the next provider answers %i -> MidStreamError with the finals',
    async (status) => {
      const { opened, open } = gate();
      // a: a Deepgram that sends one final over the first half second, then (once the caller has
      // it) closes with 1011.
      const a = await wsServer((ws) => {
        let heard = 0;
        let sent = false;
        ws.on('message', (data, binary) => {
          if (!binary) return;
          heard += (data as Buffer).byteLength;
          if (sent || heard < SECOND / 2) return;
          sent = true;
          ws.send(
            JSON.stringify({
              type: 'Results',
              is_final: true,
              speech_final: true,
              start: 0,
              duration: 0.5,
              channel: { alternatives: [{ transcript: 'hello there', confidence: 1 }] },
            }),
          );
          void opened.then(() => ws.close(1011, 'internal error'));
        });
      });
      const b = await refusing(status, 'file: bad audio');
      const r = router({
        providers: {
          a: { kind: 'deepgram', baseUrl: a.url, apiKey: 'test-key', stt: { model: 'nova-3' } },
          b: { kind: 'openai-compatible', baseUrl: `${b.url}/v1`, stt: { model: 'w', streaming: false } },
        },
        routes: { stt: { providers: ['a', 'b'], strategy: 'priority', midStream: 'replay' } },
      });
      const feed = new Feed();
      feed.push(1_000, 7);
      const stream = r.stt({ audio: feed, format: FORMAT });
      const finals: string[] = [];
      const error = await caught(stream, (e: TranscriptEvent) => {
        if (e.type !== 'final') return;
        finals.push(e.text);
        open();
        // More speech after the final, then the end: the replay has audio to send.
        feed.push(500, 9);
        feed.end();
      });

      expect(finals).toEqual(['hello there']);
      expect(b.bodies.length).toBe(1);
      expect(error).toBeInstanceOf(MidStreamError);
      const mid = error as MidStreamError;
      expect([mid.provider, mid.partialOutput, mid.partialText, mid.toolCalls]).toEqual([
        'a',
        true,
        'hello there',
        undefined,
      ]);
      expect(attemptsOf(mid)).toEqual([
        ['a', 'failed', 1011],
        ['b', 'failed', status],
      ]);
      expect(mid.message).toContain(`; continuing on 'b' failed: Provider 'b' answered HTTP ${status}`);
      await expect(stream.result).rejects.toBe(error);
    },
  );
});

describe('an abort after output', () => {
  it("chat: the caller's abort after the first text -> AbortError with partialOutput", async () => {
    const { opened } = gate();
    const a = await cutChat(opened);
    const r = router({
      providers: { a: { kind: 'openai-compatible', baseUrl: `${a.url}/v1`, chat: { models: { f: 'm' } } } },
      routes: { chat: { providers: ['a'], strategy: 'priority' } },
    });
    const abort = new AbortController();
    const stream = r.chat({ model: 'f', messages: [{ role: 'user', content: 'q' }], signal: abort.signal });
    const texts: string[] = [];
    const error = await caught(stream, (e: ChatEvent) => {
      if (e.type === 'text-delta') texts.push(e.text);
      if (texts.length === 2) abort.abort();
    });
    expect(texts).toEqual(LEAD);
    expect(error).toBeInstanceOf(AbortError);
    expect([(error as AbortError).message, (error as AbortError).partialOutput]).toEqual([
      'The call was aborted',
      true,
    ]);
  });

  it('chat continue: an abort while the takeover is connecting -> AbortError with partialOutput', async () => {
    const { opened, open } = gate();
    const a = await cutChat(opened);
    const { opened: bAsked, open: bAsk } = gate();
    // b: takes the request and never answers.
    const b = await httpServer(async (req) => {
      await readBody(req);
      bAsk();
    });
    const r = router({
      providers: {
        a: { kind: 'openai-compatible', baseUrl: `${a.url}/v1`, chat: { models: { f: 'm' } } },
        b: { kind: 'anthropic', baseUrl: b.url, apiKey: 'test-key', chat: { models: { f: 'claude-x' } } },
      },
      routes: {
        chat: {
          providers: ['a', 'b'],
          strategy: 'priority',
          midStream: 'continue',
          firstChunkTimeoutMs: false,
        },
      },
    });
    const abort = new AbortController();
    void bAsked.then(() => abort.abort());
    const stream = r.chat({ model: 'f', messages: [{ role: 'user', content: 'q' }], signal: abort.signal });
    const texts: string[] = [];
    const error = await caught(stream, (e: ChatEvent) => {
      if (e.type === 'text-delta') texts.push(e.text);
      if (texts.length === 2) open();
    });
    expect(texts).toEqual(LEAD);
    expect(b.hits).toBe(1);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).partialOutput).toBe(true);
  });

  it('chat: an abort before any output -> AbortError without partialOutput', async () => {
    const { opened: asked, open: ask } = gate();
    const a = await httpServer(async (req) => {
      await readBody(req);
      ask();
    });
    const r = router({
      providers: { a: { kind: 'openai-compatible', baseUrl: `${a.url}/v1`, chat: { models: { f: 'm' } } } },
      routes: { chat: { providers: ['a'], strategy: 'priority', firstChunkTimeoutMs: false } },
    });
    const abort = new AbortController();
    void asked.then(() => abort.abort());
    const error = await caught(
      r.chat({ model: 'f', messages: [{ role: 'user', content: 'q' }], signal: abort.signal }),
      () => {},
    );
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).partialOutput).toBe(false);
  });
});
