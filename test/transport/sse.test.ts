import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../src/errors/index.js';
import { parseSse } from '../../src/transport/sse.js';
import { chunks, collect, datas, trackedBody } from './sse-helpers.js';

describe('parseSse', () => {
  it('C01: CR and LF of one CRLF in different chunks give one event "x\\ny"', async () => {
    const events = await collect(parseSse(chunks('data: x\r', '\ndata: y\r\n', '\r\n')));
    expect(events).toEqual([{ data: 'x\ny' }]);
  });

  it('C02: CRLF, bare CR and mixed line ends each give exactly one event "1"', async () => {
    for (const body of ['data: 1\r\n\r\n', 'data: 1\r\r', 'data: 1\r\n\n']) {
      expect(await collect(parseSse(chunks(body)))).toEqual([{ data: '1' }]);
    }
  });

  it('C02: mixed line ends across events keep every event', async () => {
    const body = 'data: a\r\n\r\ndata: b\n\ndata: c\r\rdata: d\r\n\n';
    expect(datas(await collect(parseSse(chunks(body))))).toEqual(['a', 'b', 'c', 'd']);
  });

  it('C02: a body that ends without any event but held data throws ProtocolError, not a clean end', async () => {
    const error = await collect(parseSse(chunks('{"not":"sse"}'), { provider: 'p' })).catch(
      (e: unknown) => e,
    );
    expect(ProtocolError.isInstance(error)).toBe(true);
    if (!ProtocolError.isInstance(error)) return;
    expect([error.offset, error.retryable, error.provider]).toEqual([13, true, 'p']);
    expect(error.message).toBe(
      'Event stream ended after 13 bytes without a single event (not server-sent events?)',
    );
  });

  it('C02: a body of only comments and blank lines ends cleanly with no event', async () => {
    expect(await collect(parseSse(chunks(': ping\n\n', ':\r\n', '\r\n')))).toEqual([]);
    expect(await collect(parseSse(chunks()))).toEqual([]);
  });

  describe('C04: the pending event is flushed when the body ends without a blank line', () => {
    const first = 'data: {"d":"a"}\n\n';
    const last = 'data: {"d":"b","finish":"stop"}';
    for (const [name, ending] of [
      ['LF', '\n'],
      ['CRLF', '\r\n'],
      ['CR', '\r'],
      ['nothing', ''],
    ] as const) {
      it(`C04: last line ended by ${name}`, async () => {
        const events = await collect(parseSse(chunks(first, last + ending)));
        expect(datas(events)).toEqual(['{"d":"a"}', '{"d":"b","finish":"stop"}']);
      });
    }

    it('C04: a comment-only tail yields nothing', async () => {
      const events = await collect(parseSse(chunks(`${first}: bye`)));
      expect(datas(events)).toEqual(['{"d":"a"}']);
    });
  });

  it('C05: comments produce no event and no empty-data event reaches the caller; onComment sees each', async () => {
    const comments: string[] = [];
    const body = 'id: 1\ndata: {"a":1}\n\n: ping\n\n:\n\n: keepalive\ndata: {"a":2}\n\n';
    const events = await collect(parseSse(chunks(body), { onComment: (c) => comments.push(c) }));
    expect(events).toEqual([{ id: '1', data: '{"a":1}' }, { data: '{"a":2}' }]);
    expect(comments).toEqual(['ping', '', 'keepalive']);
  });

  it('C05: an id-only or empty-data event is not delivered', async () => {
    const events = await collect(parseSse(chunks('id: 7\n\ndata:\n\nevent: x\n\ndata: z\n\n')));
    expect(events).toEqual([{ data: 'z' }]);
  });

  it('keeps event names, ids and multi-line data', async () => {
    const body = 'event: message_start\nid: 42\ndata: line1\ndata: line2\n\nevent: ping\ndata: {}\n\n';
    expect(await collect(parseSse(chunks(body)))).toEqual([
      { event: 'message_start', id: '42', data: 'line1\nline2' },
      { event: 'ping', data: '{}' },
    ]);
  });

  it('decodes UTF-8 split inside multi-byte characters across chunks', async () => {
    const bytes = new TextEncoder().encode('data: héllo 🎉 ü\n\n');
    // Split after every byte: every multi-byte sequence is cut.
    const parts = Array.from(bytes, (b) => Uint8Array.of(b));
    expect(datas(await collect(parseSse(chunks(...parts))))).toEqual(['héllo 🎉 ü']);
  });

  it('drops a leading UTF-8 BOM', async () => {
    const body = Uint8Array.from([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('data: 1\n\n')]);
    expect(await collect(parseSse(chunks(body)))).toEqual([{ data: '1' }]);
  });

  it('throws ProtocolError for an event over maxEventChars and closes the body', async () => {
    const tracked = trackedBody(['data: ', 'x'.repeat(100), 'y'.repeat(100)]);
    const error = await collect(parseSse(tracked.body, { maxEventChars: 150 })).catch((e: unknown) => e);
    expect(ProtocolError.isInstance(error) && error.offset).toBe(206);
    expect(tracked.returned()).toBe(true);
  });

  it('return() closes the body', async () => {
    const tracked = trackedBody(['data: 1\n\ndata: 2\n\n', 'data: 3\n\n']);
    const seen: string[] = [];
    for await (const event of parseSse(tracked.body)) {
      seen.push(event.data);
      break;
    }
    expect(seen).toEqual(['1']);
    expect(tracked.returned()).toBe(true);
  });

  it('passes errors of the body through unchanged', async () => {
    const failure = new Error('boom');
    async function* body(): AsyncGenerator<Uint8Array> {
      yield new TextEncoder().encode('data: 1\n\n');
      throw failure;
    }
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of parseSse(body())) seen.push(event.data);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['1']);
    expect(error).toBe(failure);
  });
});
