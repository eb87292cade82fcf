import { describe, expect, it } from 'vitest';
import type { AudioChunk } from '../../src/index.js';
import { heardClauses } from '../../src/routing/tts-streamed.js';
import { startWithBackup, llmTokens as tokens } from '../helpers/streamed-tts.js';
import { sonicPrimary } from '../providers/cartesia/helpers.js';

async function setup(script: Record<string, unknown> | Record<string, unknown>[] = {}) {
  const {
    router,
    primary: sonic,
    ec2,
  } = await startWithBackup(sonicPrimary({ script: { 'tts-websocket': script } }));
  return { router, sonic, ec2 };
}

type Wire = { context_id?: string; transcript?: string; continue?: boolean; flush?: boolean };

describe('streamed text into a provider that takes text as a stream (Cartesia WebSocket context, flush on clause ends)', () => {
  it('sends the clauses into one context with continue: true, then ends the input', async () => {
    const { router, sonic, ec2 } = await setup();
    const chunks: AudioChunk[] = [];
    const stream = router.tts({ text: tokens(), voice: 'agent' });
    for await (const c of stream) chunks.push(c);
    expect((await stream.result).provider).toBe('sonic');
    expect(sonic.sockets).toHaveLength(1);
    const sent = sonic.sockets[0]!.messages as Wire[];
    const context = sent[0]!.context_id;
    expect(sent.every((m) => m.context_id === context)).toBe(true);
    // The tokens as read (here all were read while the socket opened, so they go together), a
    // flush at the clause end the router found (a separate message, PROTOCOLS.md 1.5), then the
    // end of input, which generates the last clause (test/routing/tts-tokens.test.ts: one token a message).
    expect(sent.map((m) => [m.transcript, m.continue, m.flush])).toEqual([
      ['Sure, your table is booked for eight.', true, undefined],
      ['', true, true],
      [' See you then.', true, undefined],
      ['', false, undefined],
    ]);
    expect(ec2.requests).toHaveLength(0);
    expect(chunks.reduce((n, c) => n + c.data.byteLength, 0) % 2).toBe(0);
    expect(chunks.some((c) => c.discontinuity)).toBe(false);
  });

  it('a provider failing mid-context hands over from the first clause not fully heard; the replacement keeps the rest', async () => {
    // sonic's first connection resets after one audio message; a next one would work.
    const { router, sonic, ec2 } = await setup([{ resetAfterChunks: 1 }]);
    const chunks: AudioChunk[] = [];
    const stream = router.tts({ text: tokens(), voice: 'agent' });
    for await (const c of stream) chunks.push(c);
    const result = await stream.result;
    // ec2 (one request per clause) takes over at the clause sonic failed on and speaks the rest:
    // sonic, which failed in this call, is not asked again (its breaker is still closed).
    expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['sonic', 'failed'],
      ['ec2', 'success'],
    ]);
    // One chunk of the first clause was heard, not the whole clause: ec2 speaks it again.
    expect(ec2.requests.map((r) => (r.body as { input: string }).input)).toEqual([
      'Sure, your table is booked for eight.',
      'See you then.',
    ]);
    expect(sonic.sockets).toHaveLength(1);
    expect(chunks.filter((c) => c.discontinuity)).toHaveLength(1);
  });
});

describe('heardClauses', () => {
  const text = 'Sure, your table is booked. See you then.';
  const ends = ['Sure, your table is booked.'.length, text.length];
  const words = [
    { word: 'Sure,', startMs: 0, endMs: 300 },
    { word: 'your', startMs: 300, endMs: 500 },
    { word: 'table', startMs: 500, endMs: 800 },
    { word: 'is', startMs: 800, endMs: 900 },
    { word: 'booked.', startMs: 900, endMs: 1300 },
    { word: 'See', startMs: 1400, endMs: 1600 },
  ];
  it('counts a clause once its last word ended within the audio delivered', () => {
    expect(heardClauses(text, ends, words, 1299)).toBe(0);
    expect(heardClauses(text, ends, words, 1300)).toBe(1);
    expect(heardClauses(text, ends, words, 5000)).toBe(1);
    expect(heardClauses(text, ends, [], 5000)).toBe(0);
  });
});
