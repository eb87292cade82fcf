import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../src/errors/index.js';
import { parseJsonEvents } from '../../src/transport/json-events.js';
import { parseSse } from '../../src/transport/sse.js';
import type { HttpTransport } from '../../src/transport/types.js';
import { type Loopback, loopbackHooks } from './loopback.js';
import { modes } from './modes.js';
import { route } from './routes.js';

function protocolFields(error: unknown) {
  if (!ProtocolError.isInstance(error)) return { notAProtocolError: String(error) };
  return {
    offset: error.offset,
    retryable: error.retryable,
    partialOutput: error.partialOutput,
    provider: error.provider,
  };
}

describe.each(modes)('cut bodies over loopback ($name)', ({ create }) => {
  let loop: Loopback;
  let transport: HttpTransport;

  loopbackHooks(
    route,
    (started) => (loop = started),
    () => transport,
  );

  it('C29: a raw body with Content-Length 48000 that ends after 30000 bytes throws a truncated ProtocolError', async () => {
    transport = create();
    const response = await transport.request({
      provider: 'tts',
      method: 'POST',
      url: `${loop.origin}/truncated`,
    });
    let bytes = 0;
    const error = await (async () => {
      for await (const chunk of response.body) bytes += chunk.byteLength;
    })().catch((e: unknown) => e);
    expect(bytes).toBe(30_000);
    expect(protocolFields(error)).toEqual({
      offset: 30_000,
      retryable: true,
      partialOutput: true,
      provider: 'tts',
    });
    expect((error as Error).message).toMatch(
      /^Response body from provider 'tts' was cut after 30000 of 48000 bytes \(truncated\)/,
    );
  });

  it('C29: an SSE stream cut after 3 deltas (no [DONE], no final chunk) throws instead of ending cleanly', async () => {
    transport = create();
    const response = await transport.request({
      provider: 'llm',
      method: 'POST',
      url: `${loop.origin}/sse-cut`,
    });
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const event of parseJsonEvents(parseSse(response.body), {
        provider: 'llm',
        requireDone: true,
      })) {
        seen.push(event.data);
      }
    })().catch((e: unknown) => e);
    expect(seen).toEqual([{ d: 'a' }, { d: 'b' }, { d: 'c' }]);
    expect(protocolFields(error)).toMatchObject({ retryable: true, partialOutput: true, provider: 'llm' });
  });
});
