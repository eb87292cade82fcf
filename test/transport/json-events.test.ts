import { describe, expect, it } from 'vitest';
import { ProtocolError, ProviderError } from '../../src/errors/index.js';
import { isDoneSentinel, parseJsonEvents } from '../../src/transport/json-events.js';
import { parseSse } from '../../src/transport/sse.js';
import { chunks, collect, trackedBody } from './sse-helpers.js';

async function run(parts: string[], options: Parameters<typeof parseJsonEvents>[1] = {}) {
  const seen: unknown[] = [];
  try {
    for await (const event of parseJsonEvents(parseSse(chunks(...parts)), options)) seen.push(event.data);
    return { seen, error: undefined };
  } catch (error) {
    return { seen, error };
  }
}

describe('parseJsonEvents', () => {
  it('C08: [DONE] (padded) is never JSON-parsed and ends the stream after the usage-only event', async () => {
    const body = 'data: {"d":"hi"}\n\ndata: {"usage":{"out":3}}\n\ndata:  [DONE] \n\n';
    const { seen, error } = await run([body], { provider: 'p', requireDone: true });
    expect(seen).toEqual([{ d: 'hi' }, { usage: { out: 3 } }]);
    expect(error).toBeUndefined();
  });

  it('C08: isDoneSentinel matches [DONE] after trimming only', () => {
    expect([' [DONE] ', '[DONE]', '\t[DONE]\r', '[DONE]x', '"[DONE]"', '{}'].map(isDoneSentinel)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('C08/C29: with requireDone, a body that ends without [DONE] throws a truncated ProtocolError', async () => {
    const { seen, error } = await run(['data: {"d":"a"}\n\ndata: {"d":"b"}\n\n'], {
      provider: 'p',
      requireDone: true,
    });
    expect(seen).toEqual([{ d: 'a' }, { d: 'b' }]);
    expect(ProtocolError.isInstance(error)).toBe(true);
    if (!ProtocolError.isInstance(error)) return;
    expect([error.retryable, error.partialOutput, error.provider]).toEqual([true, true, 'p']);
    expect(error.message).toBe('Event stream ended without its end marker (truncated)');
  });

  it('without requireDone, a body that ends without [DONE] ends cleanly', async () => {
    const { seen, error } = await run(['data: {"type":"done"}\n\n']);
    expect(seen).toEqual([{ type: 'done' }]);
    expect(error).toBeUndefined();
  });

  it('a custom isDone ends the stream on another sentinel', async () => {
    const { seen } = await run(['data: {"a":1}\n\ndata: END\n\ndata: {"a":2}\n\n'], {
      isDone: (d) => d === 'END',
    });
    expect(seen).toEqual([{ a: 1 }]);
  });

  it('invalid JSON throws ProtocolError without echoing the payload, and closes the body', async () => {
    const tracked = trackedBody(['data: {"ok":1}\n\n', 'data: {"secret":"hunter2"\n\n', 'data: {}\n\n']);
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const e of parseJsonEvents(parseSse(tracked.body), { provider: 'p' })) seen.push(e.data);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([{ ok: 1 }]);
    expect(ProtocolError.isInstance(error)).toBe(true);
    if (!ProtocolError.isInstance(error)) return;
    expect(error.message).toBe('Server-sent event data is not JSON (19 characters)');
    expect(error.message).not.toContain('hunter2');
    expect([error.retryable, error.partialOutput]).toEqual([true, true]);
    expect(tracked.returned()).toBe(true);
  });

  describe('C06: an error event in the middle of a 200 stream', () => {
    const error = '{"error":{"type":"overloaded_error","code":"overloaded","message":"busy"}}';
    const bodies = {
      'with event: error': `data: {"delta":"Par"}\n\nevent: error\ndata: ${error}\n\n`,
      'data-only error object': `data: {"delta":"Par"}\n\ndata: ${error}\n\n`,
    };
    for (const [name, body] of Object.entries(bodies)) {
      it(`C06: ${name}: yields "Par", then throws a typed, retryable ProviderError with partialOutput`, async () => {
        const result = await run([body], { provider: 'vllm' });
        expect(result.seen).toEqual([{ delta: 'Par' }]);
        const e = result.error;
        expect(ProviderError.isInstance(e)).toBe(true);
        if (!ProviderError.isInstance(e)) return;
        expect({
          provider: e.provider,
          providerType: e.providerType,
          providerCode: e.providerCode,
          retryable: e.retryable,
          partialOutput: e.partialOutput,
          status: e.status,
        }).toEqual({
          provider: 'vllm',
          providerType: 'overloaded_error',
          providerCode: 'overloaded',
          retryable: true,
          partialOutput: true,
          status: undefined,
        });
        expect(e.message).toContain('busy');
      });
    }

    it('C06: an error before any output has partialOutput false', async () => {
      const { seen, error: e } = await run([`event: error\ndata: ${error}\n\n`], { provider: 'p' });
      expect(seen).toEqual([]);
      expect(ProviderError.isInstance(e) && e.partialOutput).toBe(false);
    });

    it('C06: an error event whose data is not JSON is still a ProviderError', async () => {
      const { error: e } = await run(['event: error\ndata: upstream died\n\n'], { provider: 'p' });
      expect(ProviderError.isInstance(e) && e.message).toBe(
        "Provider 'p' sent an error event mid-stream: upstream died",
      );
    });

    it('C06: with detectErrors false, error payloads are yielded as data', async () => {
      const { seen, error: e } = await run([`data: ${error}\n\n`], { detectErrors: false });
      expect(e).toBeUndefined();
      expect(seen).toEqual([JSON.parse(error)]);
    });
  });

  it('return() closes the underlying body', async () => {
    const tracked = trackedBody(['data: {"a":1}\n\ndata: {"a":2}\n\n']);
    for await (const _ of parseJsonEvents(parseSse(tracked.body))) break;
    expect(tracked.returned()).toBe(true);
  });

  it('after [DONE], reads the rest of the body in the background until it ends', async () => {
    let pulls = 0;
    const parts = ['data: {"a":1}\n\ndata: [DONE]\n\n', ': trailing\n\n'];
    const body: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          const part = parts[pulls++];
          return part === undefined
            ? { value: undefined, done: true }
            : { value: new TextEncoder().encode(part), done: false };
        },
      }),
    };
    const events = await collect(parseJsonEvents(parseSse(body)));
    expect(events).toEqual([{ data: { a: 1 } }]);
    // Drain reads the remaining chunk and the end: 3 pulls in all.
    await new Promise((resolve) => setImmediate(resolve));
    expect(pulls).toBe(3);
  });
});
