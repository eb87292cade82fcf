import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSse, type SseEvent } from '../../src/transport/sse.js';
import { SEEDED } from '../helpers/property-seed.js';
import { chunks, collect } from './sse-helpers.js';

const lineEnd = fc.constantFrom('\n', '\r\n', '\r');
// Field values: no line-end characters; include multi-byte characters and a leading space.
const value = fc.string({
  unit: fc.constantFrom('a', 'b', ' ', ':', '{', '"', 'é', '🎉', '1'),
  maxLength: 8,
});

const line = fc.oneof(
  value.map((v) => `data: ${v}`),
  value.map((v) => `data:${v}`),
  value.map((v) => `event: ${v}`),
  value.map((v) => `id: ${v}`),
  value.map((v) => `: ${v}`),
  fc.constant(':'),
);

/** A body: events of 1-4 lines, each line and each event end chosen among LF, CRLF, CR. */
const body = fc
  .array(fc.tuple(fc.array(fc.tuple(line, lineEnd), { minLength: 1, maxLength: 4 }), lineEnd), {
    minLength: 1,
    maxLength: 5,
  })
  .map((events) => events.map(([lines, end]) => lines.map(([l, e]) => l + e).join('') + end).join(''));

async function parse(parts: Uint8Array[]): Promise<SseEvent[] | string> {
  try {
    return await collect(parseSse(chunks(...parts)));
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

describe('parseSse property', () => {
  it('C01: a body split at every offset, or fed one byte at a time, gives the same events as whole', async () => {
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        const bytes = new TextEncoder().encode(text);
        const whole = await parse([bytes]);
        for (let cut = 1; cut < bytes.length; cut++) {
          expect(await parse([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual(whole);
        }
        expect(await parse(Array.from(bytes, (b) => Uint8Array.of(b)))).toEqual(whole);
      }),
      { ...SEEDED, numRuns: 150 },
    );
  });

  it('C01: events of a generated body match a reference reading of it', async () => {
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        expect(await parse([new TextEncoder().encode(text)])).toEqual(reference(text));
      }),
      { ...SEEDED, numRuns: 300 },
    );
  });
});

/**
 * A plain reading of a body whose values hold no CR or LF: lines split on CRLF, CR or LF; fields
 * applied; an event dispatched at each blank line and, leniently, at the end of the body; events
 * with empty data dropped; `id` reported only on the event that carried it (as eventsource-parser
 * does); and the C02 error when no event came although the body held more than comments.
 */
function reference(text: string): SseEvent[] | string {
  const events: SseEvent[] = [];
  let data: string[] = [];
  let event: string | undefined;
  let id: string | undefined;
  let dispatched = false;
  let content = false;
  const dispatch = (): void => {
    if (data.length > 0) {
      dispatched = true;
      const joined = data.join('\n');
      if (joined !== '') {
        const e: SseEvent = { data: joined };
        if (event !== undefined) e.event = event;
        if (id !== undefined) e.id = id;
        events.push(e);
      }
    }
    data = [];
    event = undefined;
    id = undefined;
  };
  const lines = text.split(/\r\n|\r|\n/);
  const tail = lines.pop() ?? '';
  if (tail !== '') lines.push(tail);
  for (const l of lines) {
    if (l === '') {
      dispatch();
      continue;
    }
    if (l.startsWith(':')) continue;
    content = true;
    const colon = l.indexOf(':');
    const field = l.slice(0, colon);
    let v = l.slice(colon + 1);
    if (v.startsWith(' ')) v = v.slice(1);
    if (field === 'data') data.push(v);
    else if (field === 'event') event = v === '' ? undefined : v;
    else if (field === 'id') id = v;
  }
  dispatch();
  if (!dispatched && content) {
    return `error: Event stream ended after ${new TextEncoder().encode(text).length} bytes without a single event (not server-sent events?)`;
  }
  return events;
}
