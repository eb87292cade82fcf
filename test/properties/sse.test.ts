/**
 * Property tests of server-sent events parsing (issue 12): `parseSse` (transport) and
 * `sseJsonEvents` (the OpenAI-style JSON layer every SSE adapter uses). Any body, cut anywhere,
 * gives its events or a typed error (ProtocolError, or the provider's own in-stream error as
 * ProviderError), never another throw or a hang; chunk boundaries never change the outcome.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProtocolError, ProviderError } from '../../src/errors/index.js';
import { sseJsonEvents } from '../../src/providers/shared/sse-json-events.js';
import { parseSse, type SseEvent } from '../../src/transport/index.js';
import { cutsArb, outcome, RUNS, source, splitAt } from './chunks.js';

const encoder = new TextEncoder();
/** A field value: any text (multi-byte UTF-8 included) without line ends. */
const lineArb = fc.string({ unit: 'grapheme', maxLength: 12 }).map((s) => s.replace(/[\r\n]/g, ''));
const eolArb = fc.constantFrom('\n', '\r\n', '\r');

interface Spec {
  comment?: string;
  event?: string;
  id?: string;
  data: string[];
}
const specArb: fc.Arbitrary<Spec> = fc.record(
  {
    comment: lineArb,
    event: lineArb.filter((s) => s !== ''),
    id: lineArb.map((s) => s.replace(/\0/g, '')),
    data: fc.array(lineArb, { minLength: 1, maxLength: 3 }),
  },
  { requiredKeys: ['data'] },
);

/** The body of `specs`, each line ended by one of `eols` (cycled), with an optional BOM. */
function serialize(specs: readonly Spec[], eols: readonly string[], bom: boolean): string {
  let i = 0;
  const eol = () => eols[i++ % eols.length]!;
  let body = bom ? '\uFEFF' : '';
  for (const s of specs) {
    if (s.comment !== undefined) body += `:${s.comment}${eol()}`;
    if (s.event !== undefined) body += `event: ${s.event}${eol()}`;
    if (s.id !== undefined) body += `id: ${s.id}${eol()}`;
    for (const line of s.data) body += `data: ${line}${eol()}`;
    body += eol();
  }
  return body;
}

/**
 * The events: data lines joined by LF; empty data gives no event (as the SSE spec says); `event`
 * and `id` as the event's own fields (eventsource-parser reports the id an event carried).
 */
function expected(specs: readonly Spec[]): SseEvent[] {
  const out: SseEvent[] = [];
  for (const s of specs) {
    const data = s.data.join('\n');
    if (data === '') continue;
    const e: SseEvent = { data };
    if (s.event !== undefined) e.event = s.event;
    if (s.id !== undefined) e.id = s.id;
    out.push(e);
  }
  return out;
}

describe('parseSse (property)', () => {
  it('well-formed events, any line ends, cut anywhere (mid UTF-8 too): exactly the events the spec gives', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(specArb, { maxLength: 8 }),
        fc.array(eolArb, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        cutsArb,
        async (specs, eols, bom, cuts) => {
          // A bare CR right before the LF of a following CRLF would merge: keep CR-only bodies pure.
          const ends = eols.includes('\r') ? ['\r'] : eols;
          const bytes = encoder.encode(serialize(specs, ends, bom));
          const got = await outcome(parseSse(source(splitAt(bytes, cuts)), { provider: 'p' }));
          expect(got.error).toBeUndefined();
          expect(got.items.map((e) => ({ ...e }))).toEqual(expected(specs));
        },
      ),
      RUNS,
    );
  });

  it('any bytes, cut anywhere: events or a ProtocolError, and the same outcome as in one chunk', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }),
          fc.string({ maxLength: 200 }).map((s) => encoder.encode(s)),
          fc
            .array(
              fc.constantFrom(
                'data: {"a":1}',
                'data:',
                ': c',
                'event: x',
                'id: 7',
                '',
                'retry: 9',
                'x',
                '\r',
              ),
              {
                maxLength: 20,
              },
            )
            .map((lines) => encoder.encode(lines.join('\n'))),
        ),
        cutsArb,
        async (bytes, cuts) => {
          const whole = await outcome(parseSse(source([bytes]), { provider: 'p' }));
          const split = await outcome(parseSse(source(splitAt(bytes, cuts)), { provider: 'p' }));
          for (const o of [whole, split]) {
            if (o.error !== undefined) expect(ProtocolError.isInstance(o.error)).toBe(true);
          }
          expect(split.items).toEqual(whole.items);
          expect((split.error as Error | undefined)?.message).toBe(
            (whole.error as Error | undefined)?.message,
          );
        },
      ),
      RUNS,
    );
  });
});

describe('sseJsonEvents (property)', () => {
  const dataArb = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
    fc.constant('[DONE]'),
    fc.constant(' [DONE] '),
    fc.constant('{"error":{"message":"overloaded","type":"server_error"}}'),
    fc.string({ maxLength: 10 }).map((s) => s.replace(/[\r\n]/g, '')),
  );
  const eventArb = fc.record(
    { event: fc.constantFrom('message', 'error', 'delta'), data: dataArb },
    { requiredKeys: ['data'] },
  );

  it('any JSON-ish events, cut anywhere: JSON items (then done) or ProviderError/ProtocolError, chunk-invariant', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(eventArb, { maxLength: 8 }), cutsArb, async (events, cuts) => {
        const body = events
          .map((e) => `${e.event !== undefined ? `event: ${e.event}\n` : ''}data: ${e.data}\n\n`)
          .join('');
        const bytes = encoder.encode(body);
        const run = (chunks: Uint8Array[]) =>
          outcome(sseJsonEvents('p', { body: source(chunks) }, () => false));
        const whole = await run([bytes]);
        const split = await run(splitAt(bytes, cuts));
        for (const o of [whole, split]) {
          if (o.error !== undefined)
            expect(ProviderError.isInstance(o.error) || ProtocolError.isInstance(o.error)).toBe(true);
          // `done` only ever comes last.
          const doneAt = o.items.findIndex((i) => i.kind === 'done');
          expect(doneAt === -1 || doneAt === o.items.length - 1).toBe(true);
        }
        expect(split.items).toEqual(whole.items);
        expect((split.error as Error | undefined)?.constructor).toBe(
          (whole.error as Error | undefined)?.constructor,
        );
        expect((split.error as Error | undefined)?.message).toBe((whole.error as Error | undefined)?.message);
      }),
      RUNS,
    );
  });
});
