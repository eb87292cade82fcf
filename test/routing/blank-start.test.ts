import { describe, expect, it } from 'vitest';
import { isTakeable } from '../../src/internal/takeable.js';
import { blankStartHeld } from '../../src/routing/blank-start.js';
import type { ChatEvent } from '../../src/types/chat.js';
import { collect } from '../helpers/streams.js';

const text = (t: string): ChatEvent => ({ type: 'text-delta', text: t });
const FINISH: ChatEvent = { type: 'finish', finishReason: 'stop' };
const TOOL: ChatEvent = { type: 'tool-call', id: 'c1', name: 'book', arguments: '{}' };

async function* events(...items: ChatEvent[]): AsyncGenerator<ChatEvent> {
  yield* items;
}

describe('blankStartHeld: leading white space waits for something real', () => {
  it('white space then text: all of it, in order', async () => {
    expect(
      await collect(blankStartHeld(events(text('\n'), text(' '), text('Hi'), text(' '), FINISH))),
    ).toEqual([text('\n'), text(' '), text('Hi'), text(' '), FINISH]);
  });

  it('white space then finish: the finish first, the white space dropped', async () => {
    expect(await collect(blankStartHeld(events(text('\n\n'), text('\t'), FINISH)))).toEqual([FINISH]);
    expect(await collect(blankStartHeld(events(text(' '))))).toEqual([]);
  });

  it('white space then a tool call: both, in order', async () => {
    expect(await collect(blankStartHeld(events(text('\n'), TOOL, FINISH)))).toEqual([
      text('\n'),
      TOOL,
      FINISH,
    ]);
  });

  it('is Takeable, so the router hands items on by plain calls', () => {
    const it = blankStartHeld(events(text('Hi')))[Symbol.asyncIterator]();
    expect(isTakeable(it)).toBe(true);
  });
});
