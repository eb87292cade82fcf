/**
 * Bare CR line ends: the SSE wire allows them (WHATWG: CRLF, LF or CR), NDJSON / JSON Lines do
 * not (LF, with an optional CR before it). The SageMaker payload framing reads SSE with the
 * transport's event parser (bare CR ends a line there) and JSON lines with `splitLines`, which
 * ends a line at LF only: a bare CR inside JSON lines is not a line end, so two values joined by
 * one fail as one line that is not JSON (a ProtocolError), never merged or dropped silently.
 */
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../src/index.js';
import { jsonMessages } from '../../src/providers/sagemaker/framing.js';
import { chunksOf, collect } from '../helpers/streams.js';

describe('bare CR line ends in SageMaker payloads', () => {
  it('SSE framing: events ended by bare CR, split anywhere, are read as events', async () => {
    const body = 'data: {"t":"Hel"}\r\rdata: {"t":"lo"}\r\rdata: [DONE]\r\r';
    for (const cut of [1, 7, 17, 18, 30]) {
      const messages = await collect(
        jsonMessages(chunksOf([body.slice(0, cut), body.slice(cut)]), { provider: 'sm', framing: 'auto' }),
      );
      expect(messages).toEqual([
        { kind: 'json', event: undefined, value: { t: 'Hel' } },
        { kind: 'json', event: undefined, value: { t: 'lo' } },
        { kind: 'done' },
      ]);
    }
  });

  it('JSON lines: CRLF ends a line, also split between the CR and the LF', async () => {
    const messages = await collect(
      jsonMessages(chunksOf(['{"t":"a"}\r', '\n{"t":"b"}\r\n']), { provider: 'sm', framing: 'jsonlines' }),
    );
    expect(messages).toEqual([
      { kind: 'json', event: undefined, value: { t: 'a' } },
      { kind: 'json', event: undefined, value: { t: 'b' } },
    ]);
  });

  it('JSON lines: a bare CR is no line end, so two values joined by one are a ProtocolError', async () => {
    const error = await collect(
      jsonMessages(chunksOf(['{"t":"a"}\r{"t":"b"}\n']), { provider: 'sm', framing: 'jsonlines' }),
    ).catch((e: unknown) => e);
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect((error as ProtocolError).message).toBe('JSON line is not JSON (19 characters)');
  });
});
