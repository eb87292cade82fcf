/**
 * The kit's OpenAI-compatible mock in dialect 'vllm' honours `continue_final_message` as vLLM
 * does: after a mid-stream switch (chat midStream 'continue') the caller reads no repeated
 * prefix. Provider A is a server of its own (node:http) that sends two deltas, then resets.
 */
import { describe, expect, it } from 'vitest';
import { createRouter } from '../../src/index.js';
import {
  createOpenAiCompatibleMock,
  DEFAULT_CHAT_REPLY,
  startMockProviders,
  startMockServer,
} from '../../src/testing/index.js';
import { chatChunk, drain, httpServer, readBody, router, sseFrames } from '../cases/wire/servers.js';

describe("OpenAI-compatible mock, dialect 'vllm': continue_final_message", () => {
  it('continues the partial reply: the caller reads the default reply once', async () => {
    const a = await httpServer(async (req, res) => {
      await readBody(req);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        sseFrames([chatChunk({ role: 'assistant', content: '' }), chatChunk({ content: 'This is' })]),
        () => setImmediate(() => req.socket.resetAndDestroy()),
      );
    });
    const mock = createOpenAiCompatibleMock({ dialect: 'vllm' });
    const b = await startMockServer({ provider: mock });
    try {
      const r = router({
        providers: {
          A: { kind: 'openai-compatible', baseUrl: `${a.url}/v1`, chat: { models: { m: 'x' } } },
          B: {
            kind: 'openai-compatible',
            baseUrl: `${b.url}/v1`,
            chat: { models: { m: 'x' }, continueFinalMessage: true },
          },
        },
        routes: { chat: { providers: ['A', 'B'], strategy: 'priority', midStream: 'continue' } },
      });
      const { items, error } = await drain(
        r.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      );
      expect(error).toBeUndefined();
      const text = items.map((e) => (e.type === 'text-delta' ? e.text : '')).join('');
      expect(text).toBe(DEFAULT_CHAT_REPLY);
      const body = mock.requests[0]?.body as Record<string, unknown>;
      expect([body.continue_final_message, body.add_generation_prompt]).toEqual([true, false]);
      expect((body.messages as unknown[]).at(-1)).toEqual({ role: 'assistant', content: 'This is' });
    } finally {
      await b.close();
    }
  });

  it('startMockProviders serves a provider declared with continueFinalMessage in the vllm dialect', async () => {
    const mocks = await startMockProviders(
      {
        providers: {
          A: { kind: 'openai-compatible', baseUrl: 'http://unused.invalid/v1', chat: { models: { m: 'x' } } },
          B: {
            kind: 'openai-compatible',
            baseUrl: 'http://unused.invalid/v1',
            chat: { models: { m: 'x' }, continueFinalMessage: true },
          },
        },
        routes: { chat: { providers: ['A', 'B'], strategy: 'priority', midStream: 'continue' } },
      },
      {
        providers: {
          A: { chat: { deltas: ['This is', ' cut'] }, script: { chat: { resetAfterChunks: 2 } } },
        },
      },
    );
    const r = createRouter(mocks.config);
    try {
      const { items, error } = await drain(
        r.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      );
      expect(error).toBeUndefined();
      const text = items.map((e) => (e.type === 'text-delta' ? e.text : '')).join('');
      // B continued the partial reply rather than answering anew.
      expect(text).toBe(DEFAULT_CHAT_REPLY);
      expect(mocks.mocks.B!.requests).toHaveLength(1);
    } finally {
      await r.close();
      await mocks.close();
    }
  });

  it('refuses continue_final_message with add_generation_prompt true (400), as vLLM does', async () => {
    const mock = createOpenAiCompatibleMock({ dialect: 'vllm' });
    const server = await startMockServer({ provider: mock });
    try {
      const res = await fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'x',
          stream: true,
          messages: [{ role: 'assistant', content: 'This is' }],
          continue_final_message: true,
          add_generation_prompt: true,
        }),
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
        'Cannot set both `continue_final_message` and `add_generation_prompt` to True.',
      );
    } finally {
      await server.close();
    }
  });
});
