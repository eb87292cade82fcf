import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicAdapter } from '../../../src/providers/anthropic/index.js';
import { createHttpTransport } from '../../../src/transport/index.js';
import type { HttpTransport } from '../../../src/transport/types.js';
import { attemptOf, collect } from '../openai/helpers.js';

const BASE = 'https://gateway.example.test/anthropic';
const encoder = new TextEncoder();

/** The frames joined with CRLF line ends, then cut every `size` bytes (so lines and CRLFs split). */
function cutStream(frames: string[], size: number): HttpResponse<ReadableStream<Uint8Array>> {
  const bytes = encoder.encode(frames.join('').replaceAll('\n', '\r\n'));
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.byteLength; i += size) controller.enqueue(bytes.slice(i, i + size));
      controller.close();
    },
  });
  return new HttpResponse(stream, { headers: { 'content-type': 'text/event-stream' } });
}
const ev = (data: { type: string } & Record<string, unknown>) =>
  `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;

const server = setupServer();
let transport: HttpTransport;
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  transport = createHttpTransport({ fetch: globalThis.fetch });
});
afterAll(async () => {
  await transport.close();
  server.close();
});

describe('Anthropic chat through msw (fetch transport)', () => {
  it.each([1, 7, 64])(
    'C01: CRLF frames cut every %i bytes give the same events; Bearer auth reaches the gateway path',
    async (size) => {
      let auth: string | null = null;
      server.use(
        http.post(`${BASE}/v1/messages`, ({ request }) => {
          auth = request.headers.get('authorization');
          return cutStream(
            [
              ev({ type: 'message_start', message: { usage: { input_tokens: 5, output_tokens: 1 } } }),
              ev({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
              ev({ type: 'ping' }),
              ev({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Grüße, ' } }),
              ev({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Welt 👋' } }),
              ev({ type: 'content_block_stop', index: 0 }),
              ev({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 6 } }),
              ev({ type: 'message_stop' }),
            ],
            size,
          );
        }),
      );
      const adapter = createAnthropicAdapter({
        name: 'gw',
        baseUrl: BASE,
        apiKey: 'gw-key',
        authHeader: 'bearer',
        chat: {},
      });
      const events = await collect(
        adapter.chat!.chat(
          { model: 'claude', messages: [{ role: 'user', content: 'Hallo' }] },
          attemptOf(transport),
        ),
      );
      expect(events).toEqual([
        { type: 'text-delta', text: 'Grüße, ' },
        { type: 'text-delta', text: 'Welt 👋' },
        { type: 'finish', finishReason: 'stop', usage: { inputTokens: 5, outputTokens: 6 } },
      ]);
      expect(auth).toBe('Bearer gw-key');
    },
  );
});
