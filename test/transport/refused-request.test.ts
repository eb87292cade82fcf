/**
 * A request header value the HTTP client cannot send (a key with its trailing newline) is a
 * ConfigError at `providers.<name>` naming the header, never its value, and nothing reaches the
 * server, on both HTTP wires (undici, a fetch) and on the WebSocket transport; the router then
 * charges no provider for it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, type ProviderError } from '../../src/errors/index.js';
import type { AttemptContext } from '../../src/providers/types.js';
import { routedStream } from '../../src/routing/routed-stream.js';
import { mapWireError } from '../../src/transport/network-error.js';
import { createWebSocketTransport } from '../../src/transport/websocket.js';
import type { ChatEvent } from '../../src/types/chat.js';
import { drain } from '../helpers/index.js';
import { candidate, fakeRun } from '../routing/helpers.js';
import { type Loopback, rejectionOf, startLoopback } from './loopback.js';
import { modes } from './modes.js';

const SECRET = 'sk-live-0123456789';
const LINE_BREAK =
  'contains a line break or control character (check the file or environment value for a trailing newline)';

let loop: Loopback;
beforeAll(async () => {
  loop = await startLoopback((_req, res) => {
    res.writeHead(200).end('ok');
  });
});
afterAll(async () => {
  await loop.close();
});

describe('a header value the client cannot send', () => {
  it.each(modes)(
    '$name wire: ConfigError naming the header, no request reaches the server',
    async ({ create }) => {
      const transport = create();
      try {
        const error = await rejectionOf(
          transport.request({
            provider: 'gpu',
            method: 'POST',
            url: `${loop.origin}/v1/chat/completions`,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${SECRET}\r\n` },
            body: '{}',
          }),
        );
        expect(ConfigError.isInstance(error)).toBe(true);
        expect((error as ConfigError).issues).toEqual([
          {
            path: ['providers', 'gpu'],
            message: `the HTTP client cannot send the request: the value of header authorization ${LINE_BREAK}`,
          },
        ]);
        expect(String((error as Error).message)).not.toContain(SECRET);
        expect(loop.requests).toHaveLength(0);
      } finally {
        await transport.close();
      }
    },
  );

  it('WebSocket transport: ConfigError before any connection', async () => {
    const transport = createWebSocketTransport();
    try {
      const error = await rejectionOf(
        transport.connect({
          provider: 'dg',
          url: `${loop.origin.replace('http', 'ws')}/v1/listen`,
          headers: { Authorization: `Token ${SECRET}\n` },
        }),
      );
      expect(ConfigError.isInstance(error)).toBe(true);
      expect((error as ConfigError).issues[0]?.path).toEqual(['providers', 'dg']);
      expect(String((error as Error).message)).not.toContain(SECRET);
      expect(loop.connections).toHaveLength(0);
    } finally {
      await transport.close?.();
    }
  });

  it('undici refusing a header itself (UND_ERR_INVALID_ARG) maps to the same kind of ConfigError', async () => {
    const { request } = await import('undici');
    const raw = await rejectionOf(
      request(`${loop.origin}/x`, { headers: { authorization: `Bearer ${SECRET}\n` } }),
    );
    expect((raw as { code?: string }).code).toBe('UND_ERR_INVALID_ARG');
    const error = mapWireError(raw, { provider: 'gpu', stage: 'request' });
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as ConfigError).issues[0]?.path).toEqual(['providers', 'gpu']);
    expect(error.message).not.toContain(SECRET);
    expect(loop.requests).toHaveLength(0);
  });

  it('the router ends the call with it: no fallback to b, no failure charged to a', async () => {
    const refused = mapWireError(
      Object.assign(new Error('invalid authorization header'), { code: 'UND_ERR_INVALID_ARG' }),
      {
        provider: 'a',
        stage: 'request',
      },
    );
    const a = candidate<ChatEvent>('a', async function* (_attempt: AttemptContext) {
      yield* [];
      throw refused;
    });
    const b = candidate<ChatEvent>('b', async function* () {
      yield { type: 'text-delta', text: 'ok' };
    });
    const run = fakeRun([a, b]);
    const { items, error } = await drain(routedStream(run));
    expect(items).toEqual([]);
    expect(error).toBe(refused);
    expect(b.starts).toBe(0);
    expect(run.tracker.snapshot(a.key).errors).toBe(0);
    expect((refused as ProviderError | ConfigError).retryable).toBe(false);
  });
});
