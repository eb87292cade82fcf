/**
 * The caller's streamed text fails after complete clauses were sent to a provider that takes
 * text as a stream, while that provider is still producing their audio, and after part of the
 * next (unfinished) clause was forwarded too (an LLM reply cut mid-sentence). Every complete
 * clause is spoken in full on the same socket/context: Cartesia's flushes are answered to their
 * `flush_done`, then only the context is cancelled (the unfinished text was never flushed);
 * ElevenLabs' flushed text is spoken until the audio's alignment covers it, then the socket is
 * closed without the end of input. The unfinished clause is never spoken, the call ends with
 * the caller's RequestError, and no provider is charged. A complete short sentence held to be
 * joined to the unfinished clause ("Okay.") is spoken by a new context once the flushed ones
 * were heard. The servers speak each wire on their own (ws on loopback).
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import {
  type AudioChunk,
  MidStreamError,
  RequestError,
  type RouterConfig,
  voiceTurn,
} from '../../src/index.js';
import { deferred } from '../helpers/deferred.js';
import {
  chatChunk,
  drain,
  elevenLabsWebSocketRouter,
  httpServer,
  readBody,
  router,
  sseFrames,
  wsServer,
} from './wire/servers.js';

/** Audio chunks the servers send per clause they speak. */
const CHUNKS = 6;
/** Bytes per chunk: 20 ms of PCM s16le at 24 kHz. */
const CHUNK_BYTES = 960;

/** One chunk of clause `tag`: every byte is `tag`. */
const chunkOf = (tag: number): Buffer => Buffer.alloc(CHUNK_BYTES, tag);

/** The audio of clauses `tags`, in order, as the caller must receive it. */
const audioOf = (...tags: number[]): Buffer =>
  Buffer.concat(tags.flatMap((t) => Array(CHUNKS).fill(chunkOf(t))));

const CAUSE =
  "Invalid request field 'text': the caller's text stream threw (Error: the LLM stream was reset)";

/** A condition re-checked each time `bump` is called. */
function waits() {
  const waiting: Array<{ ok: () => boolean; resolve: () => void }> = [];
  return {
    bump() {
      for (const w of waiting.filter((w) => w.ok())) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
    },
    until: (ok: () => boolean) =>
      ok() ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ ok, resolve })),
  };
}

/**
 * Caller text: each token once the provider has received the tokens before it (`received(n)`:
 * the first n), then, once it has all of them, `release` is resolved (the server may answer
 * now) and the text throws.
 */
async function* cutReply(
  tokens: readonly string[],
  received: (n: number) => Promise<void>,
  release: () => void,
): AsyncGenerator<string> {
  for (let i = 0; i < tokens.length; i++) {
    await received(i);
    yield tokens[i]!;
  }
  await received(tokens.length);
  release();
  throw new Error('the LLM stream was reset');
}

interface CartesiaMessage {
  context_id: string;
  transcript?: string;
  continue?: boolean;
  flush?: boolean;
  cancel?: boolean;
}

/**
 * A Cartesia `/tts/websocket` server: records every message; answers each flush and each end
 * of input (once `hold` resolved) with CHUNKS chunks tagged with the count of clauses it has
 * spoken, then `flush_done` (its context's flush count as `flush_id`) or `done`.
 */
async function cartesiaServer(
  hold: Promise<void>,
  tokens: readonly string[],
  config: (url: string) => RouterConfig = (url) => ({
    providers: {
      c: {
        kind: 'cartesia',
        baseUrl: url,
        apiKey: `${'car'}-test-key-0123`,
        tts: { voices: { v: 'voice-id' }, transport: 'websocket' },
      },
    },
    routes: { tts: { providers: ['c'] } },
  }),
) {
  const messages: CartesiaMessage[] = [];
  const { bump, until } = waits();
  let spoken = 0;
  const wire = await wsServer((ws: WebSocket) => {
    const flushes = new Map<string, number>();
    ws.on('message', async (raw) => {
      const m = JSON.parse(String(raw)) as CartesiaMessage;
      messages.push({
        context_id: m.context_id,
        ...(m.transcript !== undefined ? { transcript: m.transcript } : {}),
        ...(m.continue !== undefined ? { continue: m.continue } : {}),
        ...(m.flush ? { flush: true } : {}),
        ...(m.cancel ? { cancel: true } : {}),
      });
      bump();
      if (!m.flush && m.continue !== false) return;
      const tag = ++spoken;
      const flushId = m.flush ? (flushes.get(m.context_id) ?? 0) + 1 : undefined;
      if (flushId !== undefined) flushes.set(m.context_id, flushId);
      await hold;
      const id = m.context_id;
      for (let k = 0; k < CHUNKS; k++) {
        const data = chunkOf(tag).toString('base64');
        ws.send(JSON.stringify({ type: 'chunk', context_id: id, data, done: false, status_code: 206 }));
      }
      if (flushId !== undefined)
        ws.send(
          JSON.stringify({
            type: 'flush_done',
            context_id: id,
            done: false,
            flush_done: true,
            flush_id: flushId,
            status_code: 206,
          }),
        );
      else ws.send(JSON.stringify({ type: 'done', context_id: id, done: true, status_code: 200 }));
    });
  });
  const r = router(config(wire.url));
  /** The transcripts of the first context, joined. */
  const firstContext = () =>
    messages
      .filter((m) => m.context_id === messages[0]?.context_id)
      .map((m) => m.transcript ?? '')
      .join('');
  return {
    r,
    wire,
    messages,
    received: (n: number) => until(() => firstContext() === tokens.slice(0, n).join('')),
    cancelled: () => until(() => messages.some((m) => m.cancel === true)),
  };
}

/** The messages as [transcript, continue, flush/cancel] rows, per context in order. */
function rows(messages: readonly CartesiaMessage[]) {
  return messages.map((m) =>
    m.cancel
      ? 'cancel'
      : `${JSON.stringify(m.transcript)}${m.flush ? '+flush' : ''}${m.continue === false ? '+end' : ''}`,
  );
}

const TOKENS = [
  'The first sentence is done here.',
  ' The second sentence is also done.',
  ' And this one',
  ' never gets',
];

/** Whether each chunk is the whole of one chunk of the same tag (nothing cut, nothing merged). */
const tagsOf = (items: readonly AudioChunk[]) => items.map((c) => c.data[0]);

describe('caller-text-fails-after-complete-clauses: Cartesia WebSocket', () => {
  it('both flushed clauses are spoken in full on the same context, then the context is cancelled and the RequestError thrown', async () => {
    const hold = deferred<void>();
    const { r, wire, messages, received, cancelled } = await cartesiaServer(hold.promise, TOKENS);
    const { items, error } = await drain(
      r.tts({ text: cutReply(TOKENS, received, hold.resolve), voice: 'v' }),
    );
    expect(tagsOf(items)).toEqual([1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2]);
    expect(Buffer.concat(items.map((c) => c.data))).toEqual(audioOf(1, 2));
    expect(RequestError.isInstance(error)).toBe(true);
    expect((error as RequestError).message).toBe(CAUSE);
    expect((error as RequestError).partialOutput).toBe(true);
    await cancelled();
    const id = messages[0]!.context_id;
    expect(messages.every((m) => m.context_id === id)).toBe(true);
    // The unfinished clause was sent (never flushed, never ended): only the cancel follows it.
    expect(rows(messages)).toEqual([
      '"The first sentence is done here."',
      '""+flush',
      '" The second sentence is also done."',
      '""+flush',
      '" And this one"',
      '" never gets"',
      'cancel',
    ]);
    // The caller's failure is charged to nobody.
    expect(r.stats().providers.map((s) => [s.provider, s.errors, s.breaker])).toEqual([['c', 0, 'closed']]);

    // The socket did nothing wrong: the next call runs on it.
    const next = await drain(r.tts({ text: 'Welcome back.', voice: 'v' }));
    expect(next.error).toBeUndefined();
    expect(Buffer.concat(next.items.map((c) => c.data))).toEqual(audioOf(3));
    expect(wire.connections).toBe(1);
  });

  it('a short complete sentence held with the unfinished clause is spoken by a new context after the flushed one', async () => {
    const hold = deferred<void>();
    const tokens = ['The first sentence is done here.', ' Okay.', ' And this one'];
    const { r, wire, messages, received, cancelled } = await cartesiaServer(hold.promise, tokens);
    const { items, error } = await drain(
      r.tts({ text: cutReply(tokens, received, hold.resolve), voice: 'v' }),
    );
    expect(Buffer.concat(items.map((c) => c.data))).toEqual(audioOf(1, 2));
    // The new context's first chunk continues the same provider's audio.
    expect(items.map((c) => c.discontinuity === true)).toEqual(Array(2 * CHUNKS).fill(false));
    expect((error as RequestError).message).toBe(CAUSE);
    await cancelled();
    const first = messages[0]!.context_id;
    const second = messages.at(-1)!.context_id;
    expect(second).not.toBe(first);
    expect(rows(messages.filter((m) => m.context_id === first))).toEqual([
      '"The first sentence is done here."',
      '""+flush',
      '" Okay."',
      '" And this one"',
      'cancel',
    ]);
    // The unfinished clause is never asked for again: the new context holds the held sentence only.
    expect(rows(messages.filter((m) => m.context_id === second))).toEqual(['"Okay."', '""+end']);
    expect(wire.connections).toBe(1);
    expect(r.stats().providers.map((s) => [s.provider, s.errors, s.breaker])).toEqual([['c', 0, 'closed']]);
  });
});

/**
 * An ElevenLabs stream-input server: records every text message (`text`, `flush`); answers
 * each flush (once `hold` resolved) with CHUNKS audio messages tagged with the count of flushes
 * answered, their `alignment` covering the flushed text's characters; with `tail`, then also
 * the unflushed text's audio (tag 9), as the chunk schedule may generate it; with `aligned`
 * false, no alignment data.
 */
async function elevenLabsServer(hold: Promise<void>, tail: boolean, aligned = true) {
  const texts: string[] = [];
  const { bump, until } = waits();
  const closed = deferred<void>();
  const wire = await wsServer((ws: WebSocket) => {
    let buffered = '';
    let spoken = 0;
    const speak = (text: string, tag: number) => {
      const chars = Array.from(text);
      for (let k = 0; k < CHUNKS; k++) {
        const part = chars.slice(
          Math.floor((k * chars.length) / CHUNKS),
          Math.floor(((k + 1) * chars.length) / CHUNKS),
        );
        const alignment = {
          chars: part,
          charStartTimesMs: part.map((_, i) => (i * 20) / part.length),
          charDurationsMs: part.map(() => 20 / part.length),
        };
        const audio = chunkOf(tag).toString('base64');
        ws.send(JSON.stringify(aligned ? { audio, isFinal: false, alignment } : { audio, isFinal: false }));
      }
    };
    ws.on('message', async (raw) => {
      const m = JSON.parse(String(raw)) as { text?: string; flush?: boolean };
      if (m.text === undefined) return;
      texts.push(m.flush ? `${m.text}+flush` : m.text);
      bump();
      if (m.text === ' ' && !m.flush) return;
      buffered += m.text;
      if (!m.flush) return;
      const text = buffered;
      buffered = '';
      const tag = ++spoken;
      await hold;
      speak(text, tag);
      if (tag === 2 && tail) speak('And this one never', 9);
    });
    ws.on('close', () => closed.resolve());
  });
  const r = elevenLabsWebSocketRouter(wire.url);
  return {
    r,
    texts,
    // Each token here completes one text message (ElevenLabs' messages end at a word boundary).
    received: (n: number) => until(() => n === 0 || texts.length >= n + 1),
    closed: closed.promise,
  };
}

describe('caller-text-fails-after-complete-clauses: ElevenLabs stream-input', () => {
  it.each([
    ['the server sends nothing past the flushed text', false],
    ['the unflushed text is generated too (chunk schedule): its audio is dropped', true],
  ])(
    'both flushed clauses are spoken in full, then the socket closes without the end of input (%s)',
    async (_, tail) => {
      const hold = deferred<void>();
      const { r, texts, received, closed } = await elevenLabsServer(hold.promise, tail);
      const { items, error } = await drain(
        r.tts({ text: cutReply(TOKENS, received, hold.resolve), voice: 'v' }),
      );
      expect(tagsOf(items)).toEqual([1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2]);
      expect(Buffer.concat(items.map((c) => c.data))).toEqual(audioOf(1, 2));
      expect(RequestError.isInstance(error)).toBe(true);
      expect((error as RequestError).message).toBe(CAUSE);
      await closed;
      expect(texts).toEqual([
        ' ',
        'The first sentence is done here. +flush',
        ' The second sentence is also done. +flush',
        ' And this ',
        'one never ',
      ]);
      expect(r.stats().providers.map((s) => [s.provider, s.errors, s.breaker])).toEqual([['e', 0, 'closed']]);
    },
  );

  it('without alignment data how far the audio got is unknown: the RequestError follows the first audio', async () => {
    const hold = deferred<void>();
    const { r, texts, received, closed } = await elevenLabsServer(hold.promise, false, false);
    const { items, error } = await drain(
      r.tts({ text: cutReply(TOKENS, received, hold.resolve), voice: 'v' }),
    );
    expect(tagsOf(items)).toEqual([1]);
    expect((error as RequestError).message).toBe(CAUSE);
    await closed;
    expect(texts).not.toContain('');
    expect(r.stats().providers.map((s) => [s.provider, s.errors, s.breaker])).toEqual([['e', 0, 'closed']]);
  });
});

describe('caller-text-fails-after-complete-clauses: voiceTurn, chat cut mid-sentence, Cartesia WebSocket TTS', () => {
  it('both complete sentences shown are heard in full, the unfinished one never, then the MidStreamError', async () => {
    // The reply is cut while Cartesia still owes the audio of both flushed sentences.
    const hold = deferred<void>();
    let received!: (n: number) => Promise<void>;
    /** STT answers "book a table"; chat streams TOKENS, each once TTS has the ones before, then resets. */
    const wire = await httpServer(async (req: IncomingMessage, res: ServerResponse) => {
      await readBody(req);
      if (req.url?.endsWith('/audio/transcriptions')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"text":"book a table"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sseFrames([chatChunk({ role: 'assistant', content: '' })]));
      for (let i = 0; i < TOKENS.length; i++) {
        await received(i);
        res.write(sseFrames([chatChunk({ content: TOKENS[i] })]));
      }
      await received(TOKENS.length);
      res.socket?.destroy();
    });
    const cartesia = await cartesiaServer(hold.promise, TOKENS, (url) => ({
      providers: {
        a: {
          kind: 'openai-compatible',
          baseUrl: `${wire.url}/v1`,
          chat: { models: { f: 'm' } },
          stt: { model: 'w', streaming: false },
        },
        c: {
          kind: 'cartesia',
          baseUrl: url,
          apiKey: `${'car'}-test-key-0123`,
          tts: { voices: { v: 'voice-id' }, transport: 'websocket' },
        },
      },
      routes: { stt: { providers: ['a'] }, chat: { providers: ['a'] }, tts: { providers: ['c'] } },
    }));
    received = cartesia.received;
    // Cartesia answers the flushes once the chat's failure is known to the router: the failure
    // reaches TTS while the audio of both complete sentences is still to come.
    cartesia.r.on('error', (e) => {
      if (e.capability === 'chat') hold.resolve();
    });
    const turn = voiceTurn(cartesia.r, {
      audio: (async function* () {
        yield new Uint8Array(3200);
      })(),
      format: { encoding: 'pcm_s16le', sampleRate: 16_000 },
      messages: [{ role: 'system', content: 'x' }],
      model: 'f',
      voice: 'v',
    });
    turn.result.catch(() => {});
    const audio: AudioChunk[] = [];
    let reply = '';
    let error: unknown;
    try {
      for await (const e of turn) {
        if (e.type === 'audio') audio.push(e.chunk);
        else if (e.type === 'reply-delta') reply += e.text;
      }
    } catch (e) {
      error = e;
    }
    expect(reply).toBe(TOKENS.join(''));
    expect(tagsOf(audio)).toEqual([1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2]);
    expect(Buffer.concat(audio.map((c) => c.data))).toEqual(audioOf(1, 2));
    expect(MidStreamError.isInstance(error)).toBe(true);
    await cartesia.cancelled();
    expect(rows(cartesia.messages)).toEqual([
      '"The first sentence is done here."',
      '""+flush',
      '" The second sentence is also done."',
      '""+flush',
      '" And this one"',
      '" never gets"',
      'cancel',
    ]);
    const tts = cartesia.r.stats().providers.find((p) => p.provider === 'c')!;
    expect([tts.errors, tts.breaker]).toEqual([0, 'closed']);
  });
});
