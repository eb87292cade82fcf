import { describe, expect, it } from 'vitest';
import { AbortError, ConfigError, ProtocolError, ProviderError } from '../../../src/errors/index.js';
import { isTakeable, type Takeable } from '../../../src/internal/takeable.js';
import {
  type AnthropicAdapterOptions,
  createAnthropicAdapter,
} from '../../../src/providers/anthropic/index.js';
import type { ProviderChatRequest } from '../../../src/providers/types.js';
import type { ChatEvent } from '../../../src/types/chat.js';
import { serverPerTest } from '../../helpers/server-per-test.js';
import {
  attemptOf,
  collect,
  collectUntilError,
  sendJson,
  sendSse,
  type startServer,
} from '../openai/helpers.js';

const KEY = 'sk-ant-test-key-0123456789';
const request: ProviderChatRequest = {
  model: 'claude-haiku-4-5',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Say hi' },
  ],
};

/** `event: <type>\ndata: <json>\n\n`, as the Messages API frames every event. */
function ev(data: { type: string } & Record<string, unknown>, name = data.type): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}
const messageStart = ev({
  type: 'message_start',
  message: {
    id: 'msg_01',
    type: 'message',
    role: 'assistant',
    model: 'claude-haiku-4-5',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 12, output_tokens: 1 },
  },
});
const textStart = ev({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
const ping = ev({ type: 'ping' });
const text = (t: string, index = 0) =>
  ev({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: t } });
const blockStop = (index = 0) => ev({ type: 'content_block_stop', index });
const messageDelta = (reason: string, output = 2) =>
  ev({
    type: 'message_delta',
    delta: { stop_reason: reason, stop_sequence: null },
    usage: { output_tokens: output },
  });
const messageStop = ev({ type: 'message_stop' });

/** A loopback server and an HTTP transport per test, closed after it. */
const loop = serverPerTest();

async function serve(
  handler: Parameters<typeof startServer>[0],
  options: Partial<AnthropicAdapterOptions> = {},
  base = '',
) {
  const server = await loop.serve(handler);
  return createAnthropicAdapter({
    name: 'claude',
    baseUrl: `${server.origin}${base}`,
    apiKey: KEY,
    chat: {},
    ...options,
  });
}

describe('Anthropic chat over a loopback socket', () => {
  it('takes the delta of an event already read by a plain call (take), after the first read', async () => {
    let finish!: () => void;
    const adapter = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // Both deltas in one write: they arrive in one read.
      res.write(messageStart + textStart + text('Hel') + text('lo'));
      finish = () => res.end(blockStop() + messageDelta('end_turn') + messageStop);
    });
    const iterator = adapter.chat!.chat(request, attemptOf(loop.transport))[Symbol.asyncIterator]();
    expect(isTakeable(iterator)).toBe(true);
    expect(await iterator.next()).toEqual({ done: false, value: { type: 'text-delta', text: 'Hel' } });
    const sync = iterator as Takeable<ChatEvent>;
    expect(sync.take()).toEqual({ done: false, value: { type: 'text-delta', text: 'lo' } });
    expect(sync.take()).toBeUndefined();
    finish();
    expect(await iterator.next()).toEqual({
      done: false,
      value: { type: 'finish', finishReason: 'stop', usage: { inputTokens: 12, outputTokens: 2 } },
    });
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('POSTs to /v1/messages with the key, version, body; streams deltas and one finish', async () => {
    const adapter = await serve((_req, res) =>
      sendSse(res, [
        messageStart,
        textStart,
        ping,
        text('Hel'),
        text('lo'),
        blockStop(),
        messageDelta('end_turn'),
        messageStop,
      ]),
    );
    const events = await collect(adapter.chat!.chat(request, attemptOf(loop.transport)));
    expect(events).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo' },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 12, outputTokens: 2 } },
    ]);
    const [req] = loop.server.requests;
    expect(req?.method).toBe('POST');
    expect(req?.path).toBe('/v1/messages');
    expect(req?.headers['x-api-key']).toBe(KEY);
    expect(req?.headers.authorization).toBeUndefined();
    expect(req?.headers['anthropic-version']).toBe('2023-06-01');
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.headers.accept).toBe('text/event-stream');
    expect(JSON.parse(req!.body.toString())).toEqual({
      model: 'claude-haiku-4-5',
      max_tokens: 1024,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Say hi' }],
      stream: true,
    });
  });

  it('sends Bearer auth, its version, the configured max_tokens, and extra headers that cannot replace its own', async () => {
    const adapter = await serve(
      (_req, res) => sendSse(res, [messageStart, messageDelta('max_tokens', 0), messageStop]),
      {
        authHeader: 'bearer',
        anthropicVersion: '2024-01-01',
        chat: { maxTokens: 300 },
        headers: { 'anthropic-beta': 'x-1', 'X-API-Key': 'other', Authorization: 'Basic b', Accept: '*/*' },
      },
      '/gateway/',
    );
    const events = await collect(adapter.chat!.chat(request, attemptOf(loop.transport)));
    expect(events).toEqual([
      { type: 'finish', finishReason: 'length', usage: { inputTokens: 12, outputTokens: 0 } },
    ]);
    const [req] = loop.server.requests;
    expect(req?.path).toBe('/gateway/v1/messages');
    expect(req?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req?.headers['x-api-key']).toBeUndefined();
    expect(req?.headers['anthropic-version']).toBe('2024-01-01');
    expect(req?.headers['anthropic-beta']).toBe('x-1');
    expect(req?.headers.accept).toBe('text/event-stream');
    expect(JSON.parse(req!.body.toString()).max_tokens).toBe(300);
  });

  it('assembles a streamed tool use into one tool-call, then finishes with tool-calls', async () => {
    const adapter = await serve((_req, res) =>
      sendSse(res, [
        messageStart,
        ev({
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'tool_use', id: 'toolu_1', name: 'book', input: {} },
        }),
        ping,
        ev({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '' } }),
        ev({
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json: '{"tab' },
        }),
        ev({
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json: 'le":4}' },
        }),
        blockStop(0),
        messageDelta('tool_use', 9),
        messageStop,
      ]),
    );
    expect(await collect(adapter.chat!.chat(request, attemptOf(loop.transport)))).toEqual([
      { type: 'tool-call', id: 'toolu_1', name: 'book', arguments: '{"table":4}' },
      { type: 'finish', finishReason: 'tool-calls', usage: { inputTokens: 12, outputTokens: 9 } },
    ]);
  });

  it('C06: an error event after text throws ProviderError overloaded_error, retryable, partialOutput', async () => {
    const error = ev({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    const adapter = await serve((_req, res) => sendSse(res, [messageStart, textStart, text('Par'), error]));
    const { items, error: caught } = await collectUntilError(
      adapter.chat!.chat(request, attemptOf(loop.transport)),
    );
    expect(items).toEqual([{ type: 'text-delta', text: 'Par' }]);
    expect(ProviderError.isInstance(caught)).toBe(true);
    const e = caught as ProviderError;
    expect({
      type: e.providerType,
      retryable: e.retryable,
      partial: e.partialOutput,
      status: e.status,
    }).toEqual({
      type: 'overloaded_error',
      retryable: true,
      partial: true,
      status: undefined,
    });
    expect(e.message).toContain('Overloaded');
  });

  it('C06: an error event before any text has partialOutput false; invalid_request_error is not retryable', async () => {
    const error = ev({ type: 'error', error: { type: 'invalid_request_error', message: 'bad' } });
    const adapter = await serve((_req, res) => sendSse(res, [messageStart, textStart, ping, error]));
    const { items, error: caught } = await collectUntilError(
      adapter.chat!.chat(request, attemptOf(loop.transport)),
    );
    expect(items).toEqual([]);
    const e = caught as ProviderError;
    expect(ProviderError.isInstance(e)).toBe(true);
    expect({ type: e.providerType, retryable: e.retryable, partial: e.partialOutput }).toEqual({
      type: 'invalid_request_error',
      retryable: false,
      partial: false,
    });
  });

  it('C29: a body that ends after message_delta but without message_stop throws ProtocolError (truncated)', async () => {
    const adapter = await serve((_req, res) =>
      sendSse(res, [messageStart, textStart, text('Hi'), blockStop(), messageDelta('end_turn')]),
    );
    const { items, error } = await collectUntilError(adapter.chat!.chat(request, attemptOf(loop.transport)));
    expect(items).toEqual([{ type: 'text-delta', text: 'Hi' }]);
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect({ message: (error as Error).message, partial: (error as ProtocolError).partialOutput }).toEqual({
      message: 'Messages stream ended before message_stop (truncated)',
      partial: true,
    });
  });

  it('ignores what follows message_stop and ends at once', async () => {
    const adapter = await serve((_req, res) =>
      sendSse(res, [
        messageStart,
        textStart,
        text('Hi'),
        blockStop(),
        messageDelta('stop_sequence'),
        messageStop,
        text('late'),
      ]),
    );
    expect(await collect(adapter.chat!.chat(request, attemptOf(loop.transport)))).toEqual([
      { type: 'text-delta', text: 'Hi' },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 12, outputTokens: 2 } },
    ]);
  });

  it('throws ProtocolError for data that is not JSON, without the data in the message', async () => {
    const adapter = await serve((_req, res) =>
      sendSse(res, [
        messageStart,
        textStart,
        text('A'),
        'event: content_block_delta\ndata: {"secret-ish": tru\n\n',
      ]),
    );
    const { error } = await collectUntilError(adapter.chat!.chat(request, attemptOf(loop.transport)));
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect((error as ProtocolError).partialOutput).toBe(true);
    expect((error as Error).message).not.toContain('secret-ish');
  });

  it('HTTP 529 with an overloaded_error body is a retryable ProviderError with its type; no key in the message', async () => {
    const adapter = await serve((_req, res) =>
      sendJson(res, 529, {
        type: 'error',
        error: { type: 'overloaded_error', message: `Overloaded ${KEY}` },
      }),
    );
    const { error } = await collectUntilError(adapter.chat!.chat(request, attemptOf(loop.transport)));
    const e = error as ProviderError;
    expect(ProviderError.isInstance(e)).toBe(true);
    expect({ status: e.status, type: e.providerType, retryable: e.retryable }).toEqual({
      status: 529,
      type: 'overloaded_error',
      retryable: true,
    });
    expect(e.message).not.toContain(KEY);
  });

  it('HTTP 429 with retry-after gives retryAfterMs; 401 authentication_error is not retryable', async () => {
    const adapter = await serve((req, res) =>
      req.headers['x-api-key'] === KEY
        ? sendJson(
            res,
            429,
            { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } },
            { 'retry-after': '7' },
          )
        : sendJson(res, 401, {
            type: 'error',
            error: { type: 'authentication_error', message: 'invalid x-api-key' },
          }),
    );
    const limited = (await collectUntilError(adapter.chat!.chat(request, attemptOf(loop.transport))))
      .error as ProviderError;
    expect({
      status: limited.status,
      type: limited.providerType,
      retryAfterMs: limited.retryAfterMs,
    }).toEqual({
      status: 429,
      type: 'rate_limit_error',
      retryAfterMs: 7000,
    });
    const wrong = createAnthropicAdapter({
      name: 'claude',
      baseUrl: loop.server.origin,
      apiKey: 'sk-wrong-key-999',
      chat: {},
    });
    const denied = (await collectUntilError(wrong.chat!.chat(request, attemptOf(loop.transport))))
      .error as ProviderError;
    expect({ status: denied.status, type: denied.providerType, retryable: denied.retryable }).toEqual({
      status: 401,
      type: 'authentication_error',
      retryable: false,
    });
    expect(denied.message).not.toContain('sk-wrong-key-999');
  });

  it('C27: aborting the signal mid-stream throws AbortError', async () => {
    const adapter = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(messageStart + textStart + text('Hi'));
    });
    const controller = new AbortController();
    const iterator = adapter
      .chat!.chat(request, attemptOf(loop.transport, controller.signal))
      [Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ type: 'text-delta', text: 'Hi' });
    const next = iterator.next();
    controller.abort();
    await expect(next).rejects.toSatisfy((e: unknown) => AbortError.isInstance(e));
  });

  it('throws ConfigError for a baseUrl that is not http(s) or holds credentials, and for an empty key', () => {
    for (const [baseUrl, apiKey, message] of [
      ['ftp://x.test', KEY, 'must be an http or https URL'],
      ['https://u:p@x.test', KEY, 'must not hold credentials; use apiKey'],
      ['https://x.test', '', 'must not be empty'],
    ] as const) {
      let caught: unknown;
      try {
        createAnthropicAdapter({ name: 'claude', baseUrl, apiKey, chat: {} });
      } catch (error) {
        caught = error;
      }
      expect(ConfigError.isInstance(caught)).toBe(true);
      expect((caught as ConfigError).issues[0]?.message).toBe(message);
    }
  });

  it('has no chat capability without the chat option', () => {
    expect(createAnthropicAdapter({ name: 'claude', apiKey: KEY }).chat).toBeUndefined();
    expect(createAnthropicAdapter({ name: 'claude', apiKey: KEY }).name).toBe('claude');
  });
});
