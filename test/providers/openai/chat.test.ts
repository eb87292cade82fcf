import { describe, expect, it } from 'vitest';
import { AbortError, ProtocolError, ProviderError } from '../../../src/errors/index.js';
import { isTakeable, type Takeable } from '../../../src/internal/takeable.js';
import { createOpenAiAdapter } from '../../../src/providers/openai/index.js';
import type { ProviderChatRequest } from '../../../src/providers/types.js';
import type { ChatEvent } from '../../../src/types/chat.js';
import { serverPerTest } from '../../helpers/server-per-test.js';
import {
  attemptOf,
  collect,
  collectUntilError,
  data,
  recordingTransport,
  sendJson,
  sendSse,
} from './helpers.js';

const request: ProviderChatRequest = {
  model: 'llama-8b',
  messages: [{ role: 'user', content: 'Say hi' }],
  maxTokens: 16,
};

function chunk(
  delta: Record<string, unknown>,
  finishReason: string | null = null,
  extra: Record<string, unknown> = {},
) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'llama-8b',
    usage: null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...extra,
  };
}
const usageChunk = {
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  choices: [],
  usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 },
};

/** A loopback server and an HTTP transport per test, closed after it. */
const loop = serverPerTest();

async function chatWith(frames: string[], opts: { apiKey?: string; headers?: Record<string, string> } = {}) {
  const server = await loop.serve((_req, res) => sendSse(res, frames));
  const adapter = createOpenAiAdapter({
    name: 'ec2',
    kind: 'openai-compatible',
    baseUrl: `${server.origin}/v1/`,
    chat: {},
    ...opts,
  });
  return adapter.chat!.chat(request, attemptOf(loop.transport));
}

describe('OpenAI chat over a loopback socket', () => {
  it('takes the delta of an event already read by a plain call (take), after the first read', async () => {
    let finish!: () => void;
    const server = await loop.serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // Both deltas in one write: they arrive in one read.
      res.write(data(chunk({ content: 'Hel' })) + data(chunk({ content: 'lo' })));
      finish = () => res.end(data(chunk({}, 'stop')) + data('[DONE]'));
    });
    const adapter = createOpenAiAdapter({
      name: 'ec2',
      kind: 'openai-compatible',
      baseUrl: `${server.origin}/v1`,
      chat: {},
    });
    const iterator = adapter.chat!.chat(request, attemptOf(loop.transport))[Symbol.asyncIterator]();
    expect(isTakeable(iterator)).toBe(true);
    expect(await iterator.next()).toEqual({ done: false, value: { type: 'text-delta', text: 'Hel' } });
    const sync = iterator as Takeable<ChatEvent>;
    expect(sync.take()).toEqual({ done: false, value: { type: 'text-delta', text: 'lo' } });
    expect(sync.take()).toBeUndefined();
    finish();
    expect(await iterator.next()).toEqual({ done: false, value: { type: 'finish', finishReason: 'stop' } });
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('streams text deltas, then one finish with the usage chunk that follows the finish reason', async () => {
    const events = await collect(
      await chatWith(
        [
          data(chunk({ role: 'assistant', content: '' })),
          data(chunk({ content: 'Hel' })),
          data(chunk({ content: 'lo', reasoning_content: 'thinking' })),
          data(chunk({}, 'stop')),
          data(usageChunk),
          data('[DONE]'),
        ],
        { apiKey: 'sk-test-123', headers: { 'X-Team': 'voice' } },
      ),
    );
    expect(events).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo' },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 11, outputTokens: 3 } },
    ]);
    const [req] = loop.server.requests;
    expect(req?.method).toBe('POST');
    expect(req?.path).toBe('/v1/chat/completions');
    expect(req?.headers.authorization).toBe('Bearer sk-test-123');
    expect(req?.headers['x-team']).toBe('voice');
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.headers.accept).toBe('text/event-stream');
    expect(JSON.parse(req!.body.toString())).toEqual({
      model: 'llama-8b',
      messages: [{ role: 'user', content: 'Say hi' }],
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 16,
    });
  });

  it('sends no Authorization header without an apiKey', async () => {
    await collect(await chatWith([data(chunk({ content: 'x' }, 'stop')), data('[DONE]')]));
    expect(loop.server.requests[0]?.headers.authorization).toBeUndefined();
    expect(Object.keys(loop.server.requests[0]!.headers)).not.toContain('authorization');
  });

  it('assembles streamed tool calls and emits them when the finish reason arrives', async () => {
    const events = await collect(
      await chatWith([
        data(
          chunk({
            role: 'assistant',
            content: null,
            tool_calls: [
              { index: 0, id: 'call_9', type: 'function', function: { name: 'book', arguments: '' } },
            ],
          }),
        ),
        data(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"table":' } }] })),
        data(chunk({ tool_calls: [{ index: 0, function: { arguments: '4}' } }] })),
        data(chunk({}, 'tool_calls')),
        data(usageChunk),
        data('[DONE]'),
      ]),
    );
    expect(events).toEqual([
      { type: 'tool-call', id: 'call_9', name: 'book', arguments: '{"table":4}' },
      { type: 'finish', finishReason: 'tool-calls', usage: { inputTokens: 11, outputTokens: 3 } },
    ]);
  });

  it('C04: the last event without a closing blank line still ends the stream with finish and usage', async () => {
    const events = await collect(
      await chatWith([
        data(chunk({ content: 'a' })),
        data(chunk({ content: 'b' }, 'stop')),
        `data: ${JSON.stringify(usageChunk)}`,
      ]),
    );
    expect(events).toEqual([
      { type: 'text-delta', text: 'a' },
      { type: 'text-delta', text: 'b' },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 11, outputTokens: 3 } },
    ]);
  });

  it('C08: a padded [DONE] is never JSON-parsed and the stream completes normally', async () => {
    const events = await collect(
      await chatWith([
        data(chunk({ content: 'hi' })),
        data({ choices: [], usage: { prompt_tokens: 2, completion_tokens: 3 } }),
        'data:  [DONE] \n\n',
      ]),
    );
    expect(events).toEqual([
      { type: 'text-delta', text: 'hi' },
      { type: 'finish', finishReason: 'other', usage: { inputTokens: 2, outputTokens: 3 } },
    ]);
  });

  it('C06: an error event after a delta throws a ProviderError with its code, retryable, partialOutput', async () => {
    const errorPayload = { error: { type: 'overloaded_error', code: 'overloaded', message: 'busy' } };
    for (const frame of [`event: error\n${data(errorPayload)}`, data(errorPayload)]) {
      const { items, error } = await collectUntilError(
        await chatWith([data(chunk({ content: 'Par' })), frame]),
      );
      expect(items).toEqual([{ type: 'text-delta', text: 'Par' }]);
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        provider: 'ec2',
        providerCode: 'overloaded',
        providerType: 'overloaded_error',
        retryable: true,
        partialOutput: true,
      });
      await loop.close();
    }
  });

  it('C06: an error after only a role chunk (no text yet) has partialOutput false', async () => {
    const { items, error } = await collectUntilError(
      await chatWith([
        data(chunk({ role: 'assistant', content: '' })),
        data({ error: { message: 'Internal error', type: 'InternalServerError', param: null, code: 500 } }),
        data('[DONE]'),
      ]),
    );
    expect(items).toEqual([]);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ providerCode: 500, retryable: true, partialOutput: false });
  });

  it("vLLM's in-stream error with an integer code, before any output, then [DONE]", async () => {
    const { items, error } = await collectUntilError(
      await chatWith([
        data({
          error: {
            message: 'This model maximum context length is 8192',
            type: 'BadRequestError',
            param: null,
            code: 400,
          },
        }),
        data('[DONE]'),
      ]),
    );
    expect(items).toEqual([]);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      providerCode: 400,
      providerType: 'BadRequestError',
      retryable: false,
      partialOutput: false,
    });
    expect((error as Error).message).toContain('maximum context length');
  });

  it('C29: three deltas then a close with no finish reason and no [DONE] is a truncated ProtocolError', async () => {
    const { items, error } = await collectUntilError(
      await chatWith([
        data(chunk({ content: 'one ' })),
        data(chunk({ content: 'two ' })),
        data(chunk({ content: 'three' })),
      ]),
    );
    expect(items.map((e) => (e.type === 'text-delta' ? e.text : e.type))).toEqual(['one ', 'two ', 'three']);
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ provider: 'ec2', retryable: true, partialOutput: true });
  });

  it('C29: a close before any output is truncated without partial output', async () => {
    const { items, error } = await collectUntilError(await chatWith([': keep-alive\n\n']));
    expect(items).toEqual([]);
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ retryable: true, partialOutput: false });
  });

  it('a malformed JSON chunk is a ProtocolError that does not echo the payload', async () => {
    const { items, error } = await collectUntilError(
      await chatWith([data(chunk({ content: 'ok' })), 'data: {"choices": [ {"delta": sk-secret\n\n']),
    );
    expect(items).toEqual([{ type: 'text-delta', text: 'ok' }]);
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ retryable: true, partialOutput: true });
    expect((error as Error).message).not.toContain('sk-secret');
  });

  it('a chunk that does not fit the schema is a ProtocolError', async () => {
    const { error } = await collectUntilError(await chatWith([data({ choices: 'nope' }), data('[DONE]')]));
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('choices');
  });

  it('passes the attempt signal and deadlines to the transport', async () => {
    const server = await loop.serve((_req, res) =>
      sendSse(res, [data(chunk({ content: 'x' }, 'stop')), data('[DONE]')]),
    );
    const recording = recordingTransport(loop.transport);
    const adapter = createOpenAiAdapter({
      name: 'ec2',
      kind: 'openai',
      baseUrl: `${server.origin}/v1`,
      chat: {},
    });
    const controller = new AbortController();
    const attempt = attemptOf(recording, controller.signal, {
      connectMs: 100,
      headersMs: 900,
      idleMs: 700,
      totalMs: 5000,
    });
    await collect(adapter.chat!.chat(request, attempt));
    expect(recording.sent).toHaveLength(1);
    expect(recording.sent[0]?.signal).toBe(controller.signal);
    expect(recording.sent[0]?.deadlines).toEqual({
      connectMs: 100,
      headersMs: 900,
      idleMs: 700,
      totalMs: 5000,
    });
    expect(recording.sent[0]?.url).toBe(`${server.origin}/v1/chat/completions`);
    expect(JSON.parse(String(recording.sent[0]?.body)).max_completion_tokens).toBe(16);
  });

  it('aborting the signal mid-stream rejects with AbortError', async () => {
    const server = await loop.serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(data(chunk({ content: 'first' })));
      // the rest never comes
    });
    const adapter = createOpenAiAdapter({
      name: 'ec2',
      kind: 'openai-compatible',
      baseUrl: `${server.origin}/v1`,
      chat: {},
    });
    const controller = new AbortController();
    const iterator = adapter
      .chat!.chat(request, attemptOf(loop.transport, controller.signal))
      [Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: { type: 'text-delta', text: 'first' } });
    const pending = iterator.next();
    controller.abort();
    const error = await pending.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(AbortError.isInstance(error)).toBe(true);
  });
});

describe('OpenAI chat HTTP errors', () => {
  async function failWith(status: number, body: unknown, headers: Record<string, string> = {}) {
    const server = await loop.serve((_req, res) => sendJson(res, status, body, headers));
    const adapter = createOpenAiAdapter({
      name: 'openai',
      kind: 'openai',
      baseUrl: `${server.origin}/v1`,
      apiKey: 'sk-secret-key',
      chat: {},
    });
    const { items, error } = await collectUntilError(adapter.chat!.chat(request, attemptOf(loop.transport)));
    expect(items).toEqual([]);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as Error).message).not.toContain('sk-secret-key');
    return error as ProviderError;
  }

  it('401 is an auth error, not retryable', async () => {
    const error = await failWith(401, {
      error: {
        message: 'Incorrect API key provided',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    });
    expect(error).toMatchObject({
      status: 401,
      providerCode: 'invalid_api_key',
      retryable: false,
      isAuthError: true,
      provider: 'openai',
    });
  });

  it('400 is not retryable and keeps the code', async () => {
    const error = await failWith(400, {
      error: {
        message: 'Unrecognized request argument supplied: foo',
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    });
    expect(error).toMatchObject({ status: 400, providerType: 'invalid_request_error', retryable: false });
    expect(error.message).toContain('Unrecognized request argument');
  });

  it('429 with Retry-After is retryable and carries the wait in ms', async () => {
    const error = await failWith(
      429,
      {
        error: { message: 'Rate limit reached', type: 'requests', param: null, code: 'rate_limit_exceeded' },
      },
      { 'retry-after': '2' },
    );
    expect(error).toMatchObject({
      status: 429,
      providerCode: 'rate_limit_exceeded',
      retryable: true,
      retryAfterMs: 2000,
    });
  });

  it('503 is retryable', async () => {
    const error = await failWith(503, {
      error: { message: 'The server is overloaded', type: 'server_error', code: null },
    });
    expect(error).toMatchObject({ status: 503, retryable: true });
  });
});
