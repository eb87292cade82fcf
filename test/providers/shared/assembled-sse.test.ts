import { describe, expect, it } from 'vitest';
import { AbortError, ProtocolError } from '../../../src/errors/index.js';
import { isTakeable, type Takeable } from '../../../src/internal/takeable.js';
import { assembledSse } from '../../../src/providers/shared/assembled-sse.js';
import { chatChunkShape } from '../../../src/providers/shared/openai-wire/api-types.js';
import { ChatStreamAssembler } from '../../../src/providers/shared/openai-wire/chat-stream.js';
import { parseWire } from '../../../src/providers/shared/parse-wire.js';
import type { HttpResponse } from '../../../src/transport/types.js';
import type { ChatEvent } from '../../../src/types/chat.js';
import { handBody } from '../../helpers/hand-body.js';
import { readAllByTake } from '../../helpers/read-by-take.js';

const delta = (content: string) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;
const stop = `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`;

/** The chat events of an OpenAI-style SSE response, as the OpenAI chat adapter assembles them. */
function chatEvents(response: HttpResponse): AsyncIterableIterator<ChatEvent> & Takeable<ChatEvent> {
  const assembler = new ChatStreamAssembler('p');
  return assembledSse('p', response, assembler, (value) => ({
    events: assembler.push(parseWire(chatChunkShape, value, 'p', 'chat chunk', assembler.hadOutput)),
    done: false,
  }));
}

describe('assembledSse: chat deltas by plain calls', () => {
  it('gives both deltas of two events that arrived in one read synchronously, without the body next()', () => {
    const hand = handBody();
    const events = chatEvents(hand.response);
    expect(isTakeable(events)).toBe(true);
    expect(events.take()).toBeUndefined();
    hand.push(delta('Hel') + delta('lo'));
    expect(events.take()).toEqual({ value: { type: 'text-delta', text: 'Hel' }, done: false });
    expect(events.take()).toEqual({ value: { type: 'text-delta', text: 'lo' }, done: false });
    expect(events.take()).toBeUndefined();
    hand.push(stop, 'data: [DONE]\n\n');
    hand.end();
    expect(events.take()).toEqual({ value: { type: 'finish', finishReason: 'stop' }, done: false });
    expect(events.take()).toEqual({ value: undefined, done: true });
    expect(hand.counts).toEqual({ next: 0, return: 0, cancel: 0 });
  });

  it('keeps order and exact text when events and a 4-byte UTF-8 character are split across reads', async () => {
    const hand = handBody();
    const events = chatEvents(hand.response);
    const reading = readAllByTake(events);
    const bytes = new TextEncoder().encode(
      `${delta('café ')}${delta('👋 ok')}${delta('ü')}${stop}data: [DONE]\n\n`,
    );
    // Reads of 3 bytes: the emoji (4 bytes), é and ü (2 bytes each) and every event are cut.
    for (let i = 0; i < bytes.length; i += 3) hand.push([...bytes.subarray(i, i + 3)]);
    hand.end();
    expect(await reading).toEqual([
      { type: 'text-delta', text: 'café ' },
      { type: 'text-delta', text: '👋 ok' },
      { type: 'text-delta', text: 'ü' },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect(hand.counts.cancel).toBe(0);
  });

  it('a malformed frame after a delta is a ProtocolError with partialOutput, thrown by take(); the response is cancelled', () => {
    const hand = handBody();
    const events = chatEvents(hand.response);
    hand.push(`${delta('Hi')}data: {"choices": [\n\n${delta('never')}`);
    expect(events.take()).toEqual({ value: { type: 'text-delta', text: 'Hi' }, done: false });
    let error: unknown;
    try {
      events.take();
    } catch (e) {
      error = e;
    }
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect((error as ProtocolError).partialOutput).toBe(true);
    expect((error as ProtocolError).message).toBe('Server-sent event data is not JSON (13 characters)');
    expect(hand.counts.cancel).toBe(1);
    expect(events.take()).toEqual({ value: undefined, done: true });
  });

  it('a body that ends without a finish reason or [DONE] throws the truncation ProtocolError and cancels nothing', async () => {
    const hand = handBody();
    const events = chatEvents(hand.response);
    const reading = readAllByTake(events);
    hand.push(delta('Hel'));
    hand.end();
    const error = await reading.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect((error as ProtocolError).message).toBe(
      'Chat stream ended without a finish reason or [DONE] (truncated)',
    );
    expect((error as ProtocolError).partialOutput).toBe(true);
    expect(hand.counts.cancel).toBe(0);
  });

  it('return() during a pending read cancels the response once and the pending read ends', async () => {
    const hand = handBody();
    const events = chatEvents(hand.response);
    hand.push(delta('Hel'));
    expect(await events.next()).toEqual({ value: { type: 'text-delta', text: 'Hel' }, done: false });
    const pending = events.next();
    expect(await events.return!()).toEqual({ value: undefined, done: true });
    expect(await pending).toEqual({ value: undefined, done: true });
    expect(hand.counts.cancel).toBe(1);
    await events.return!();
    expect(hand.counts.cancel).toBe(1);
  });

  it("the body's failure during a pending read is thrown there and the response is cancelled", async () => {
    const hand = handBody();
    const events = chatEvents(hand.response);
    hand.push(delta('Hel'));
    expect(await events.next()).toEqual({ value: { type: 'text-delta', text: 'Hel' }, done: false });
    const pending = events.next();
    hand.fail(new AbortError('aborted by the test'));
    await expect(pending).rejects.toThrow('aborted by the test');
    expect(hand.counts.cancel).toBe(1);
  });
});
