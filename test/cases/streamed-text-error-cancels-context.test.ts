/**
 * The caller's streamed text throws during a TTS call on a provider that takes text as a stream
 * (Cartesia's WebSocket contexts, ElevenLabs' stream-input socket). When the text is cut inside
 * a clause, the adapter learns it from the text iterable throwing in its input loop and cancels
 * the provider's generation (Cartesia: `{"context_id": ..., "cancel": true}`; ElevenLabs: the
 * socket is closed without the end of input `{"text":""}`), so the text already sent is neither
 * spoken nor billed. When the text failed after complete clauses only, those clauses are spoken
 * and their audio reaches the caller before the RequestError (the documented rule of a reply
 * cut short): the input is ended, not cancelled, and nothing is generated that the caller does
 * not get. Servers speak each wire on their own (ws on loopback).
 */
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { RequestError } from '../../src/index.js';
import { deferred } from '../helpers/deferred.js';
import { sendCartesiaContext } from './wire/cartesia-context.js';
import { drain, elevenLabsWebSocketRouter, pcmSignal, router, wsServer } from './wire/servers.js';

const AUDIO = pcmSignal(2400, 24_000, 3);

interface CartesiaMessage {
  context_id: string;
  transcript?: string;
  continue?: boolean;
  flush?: boolean;
  cancel?: boolean;
}

/**
 * A Cartesia TTS WebSocket server: records every message; answers AUDIO and `done` at the end of
 * input (`continue: false`) only. `heard` resolves at the first non-empty transcript, `last` at
 * a cancel or an end of input.
 */
async function cartesiaServer() {
  const messages: CartesiaMessage[] = [];
  /** Every frame as received, in order. */
  const frames: string[] = [];
  const heard = deferred<void>();
  const last = deferred<CartesiaMessage>();
  const wire = await wsServer((ws: WebSocket) => {
    ws.on('message', (raw) => {
      frames.push(String(raw));
      const m = JSON.parse(String(raw)) as CartesiaMessage;
      messages.push(m);
      if (m.transcript) heard.resolve();
      if (m.cancel) last.resolve(m);
      if (m.continue === false) {
        sendCartesiaContext(ws, m.context_id, AUDIO);
        last.resolve(m);
      }
    });
  });
  const r = router({
    providers: {
      c: {
        kind: 'cartesia',
        baseUrl: wire.url,
        apiKey: `${'car'}-test-key-0123`,
        tts: { voices: { v: 'voice-id' }, transport: 'websocket' },
      },
    },
    routes: { tts: { providers: ['c'] } },
  });
  return { r, wire, messages, frames, heard: heard.promise, last: last.promise };
}

/**
 * An ElevenLabs stream-input server: records every message's text; answers AUDIO and
 * `isFinal` at the end of input (`{"text":""}`). `heard` resolves at the first text beyond the
 * initial `" "`, `closed` when the client's socket closes (with whether the end of input came).
 */
async function elevenLabsServer() {
  const texts: string[] = [];
  const heard = deferred<void>();
  const closed = deferred<void>();
  const wire = await wsServer((ws: WebSocket) => {
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as { text?: string };
      if (m.text === undefined) return;
      texts.push(m.text);
      if (m.text.trim() !== '') heard.resolve();
      if (m.text === '') {
        ws.send(JSON.stringify({ audio: AUDIO.toString('base64'), isFinal: false }));
        ws.send(JSON.stringify({ isFinal: true }));
        ws.close(1000);
      }
    });
    ws.on('close', () => closed.resolve());
  });
  const r = elevenLabsWebSocketRouter(wire.url);
  return { r, texts, heard: heard.promise, closed: closed.promise };
}

/** Caller text: `pieces`, then (once `sent` resolves: the provider has the text) an error. */
async function* failingText(pieces: string[], sent: Promise<void>): AsyncGenerator<string> {
  for (const piece of pieces) yield piece;
  await sent;
  throw new Error('the LLM stream was reset');
}

const CAUSE =
  "Invalid request field 'text': the caller's text stream threw (Error: the LLM stream was reset)";

describe('Cartesia WebSocket: the caller text throws', () => {
  it('inside a clause: the context is cancelled, its end of input never sent, no audio', async () => {
    const { r, messages, heard, last } = await cartesiaServer();
    const { items, error } = await drain(
      r.tts({ text: failingText(['Hello there and welcome to', ' the'], heard), voice: 'v' }),
    );
    expect(items).toEqual([]);
    expect(RequestError.isInstance(error)).toBe(true);
    expect((error as RequestError).message).toBe(CAUSE);
    const end = await last;
    const id = messages[0]!.context_id;
    expect(end).toEqual({ context_id: id, cancel: true });
    expect(messages.at(-1)).toEqual({ context_id: id, cancel: true });
    expect(messages.every((m) => m.context_id === id)).toBe(true);
    expect(messages.some((m) => m.continue === false)).toBe(false);
    expect(messages.map((m) => m.transcript ?? '').join('')).toBe('Hello there and welcome to the');
  });

  it('socket-reuse: the cancelled context leaves the socket warm; the next call runs on the same connection', async () => {
    const { r, wire, messages, frames, heard, last } = await cartesiaServer();
    const first = await drain(
      r.tts({ text: failingText(['Hello there and welcome to', ' the'], heard), voice: 'v' }),
    );
    expect((first.error as RequestError).message).toBe(CAUSE);
    // The cancel is sent just before the socket goes back to the pool.
    await last;
    const id = messages[0]!.context_id;
    expect(frames.at(-1)).toBe(`{"context_id":"${id}","cancel":true}`);

    const second = await drain(r.tts({ text: 'Welcome back.', voice: 'v' }));
    expect(second.error).toBeUndefined();
    expect(Buffer.concat(second.items.map((c) => c.data))).toEqual(AUDIO);
    expect(wire.connections).toBe(1);
    const next = messages.at(-1)!;
    expect([next.transcript, next.continue]).toEqual(['Welcome back.', false]);
    expect(next.context_id).not.toBe(id);
  });

  it('after complete clauses only: they are spoken, the caller gets their audio, then the RequestError', async () => {
    const { r, messages, heard, last } = await cartesiaServer();
    const { items, error } = await drain(
      r.tts({ text: failingText(['Hello there, this is a complete sentence. '], heard), voice: 'v' }),
    );
    const end = await last;
    expect(end.continue).toBe(false);
    expect(end.transcript).toBe('');
    expect(messages.some((m) => m.cancel === true)).toBe(false);
    expect(Buffer.concat(items.map((c) => c.data))).toEqual(AUDIO);
    expect(RequestError.isInstance(error)).toBe(true);
    expect((error as RequestError).field).toBe('text');
  });
});

describe('ElevenLabs stream-input: the caller text throws', () => {
  it('inside a clause: the socket is closed without the end of input, no audio', async () => {
    const { r, texts, heard, closed } = await elevenLabsServer();
    const { items, error } = await drain(
      r.tts({ text: failingText(['Hello there and welcome to', ' the rest'], heard), voice: 'v' }),
    );
    expect(items).toEqual([]);
    expect(RequestError.isInstance(error)).toBe(true);
    expect((error as RequestError).message).toBe(CAUSE);
    await closed;
    expect(texts).not.toContain('');
    expect(texts[0]).toBe(' ');
    expect(texts.slice(1).join('').trim()).not.toBe('');
  });

  it('after complete clauses only: they are spoken, the caller gets their audio, then the RequestError', async () => {
    const { r, texts, heard, closed } = await elevenLabsServer();
    const { items, error } = await drain(
      r.tts({ text: failingText(['Hello there, this is a complete sentence. '], heard), voice: 'v' }),
    );
    await closed;
    expect(texts.at(-1)).toBe('');
    expect(Buffer.concat(items.map((c) => c.data))).toEqual(AUDIO);
    expect(RequestError.isInstance(error)).toBe(true);
    expect((error as RequestError).field).toBe('text');
  });
});
