import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicHandlers, createAnthropicMock, createManualDelay } from '../../../src/testing/index.js';
import { readChunks } from '../helpers.js';

const headers = {
  'content-type': 'application/json',
  'x-api-key': 'test-key',
  'anthropic-version': '2023-06-01',
};
const body = {
  model: 'claude-haiku-4-5',
  max_tokens: 64,
  stream: true,
  system: 'Be brief.',
  messages: [{ role: 'user', content: 'Hi' }],
};

function post(json: unknown, extra: Record<string, string | undefined> = {}, path = '/v1/messages'): Request {
  const h: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...headers, ...extra }))
    if (value !== undefined) h[name] = value;
  return new Request(`http://mock.test${path}`, { method: 'POST', headers: h, body: JSON.stringify(json) });
}

/** The `[event name, parsed data]` pairs of an SSE body. */
function events(text: string): Array<[string, unknown]> {
  return text
    .split('\n\n')
    .filter((frame) => frame !== '')
    .map((frame) => {
      const lines = frame.split('\n');
      const name = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? '';
      const data = lines.find((l) => l.startsWith('data: '))?.slice(6) ?? '';
      return [name, JSON.parse(data)];
    });
}

describe('createAnthropicMock', () => {
  it('streams the event sequence as the API does: start, block, ping, deltas, stop, message_delta, message_stop', async () => {
    const mock = createAnthropicMock({
      apiKey: 'test-key',
      reply: { text: 'Hello there.', usage: { input_tokens: 9, output_tokens: 2 } },
    });
    const response = await mock.handle(post(body));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('request-id')).toBe('req_mock_1');
    const chunks = await readChunks(response);
    expect(chunks).toHaveLength(8);
    expect(events(new TextDecoder().decode(Buffer.concat(chunks)))).toEqual([
      [
        'message_start',
        {
          type: 'message_start',
          message: {
            id: 'msg_mock_1',
            type: 'message',
            role: 'assistant',
            model: 'claude-haiku-4-5',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 9, output_tokens: 1 },
          },
        },
      ],
      [
        'content_block_start',
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      ],
      ['ping', { type: 'ping' }],
      [
        'content_block_delta',
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello ' } },
      ],
      [
        'content_block_delta',
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'there.' } },
      ],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      [
        'message_delta',
        {
          type: 'message_delta',
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { output_tokens: 2 },
        },
      ],
      ['message_stop', { type: 'message_stop' }],
    ]);
    expect(mock.requests[0]).toMatchObject({
      endpoint: 'messages',
      call: 1,
      outcome: 'completed',
      chunksSent: 8,
      body,
    });
  });

  it('streams tool_use blocks with an empty first input_json_delta, and stop_reason tool_use', async () => {
    const mock = createAnthropicMock({
      reply: { toolUses: [{ id: 'toolu_1', name: 'book', input: ['{"table":', '4}'] }] },
    });
    const text = await (await mock.handle(post(body))).text();
    expect(
      events(text).map(([name, data]) =>
        name === 'content_block_delta' || name === 'content_block_start' ? data : name,
      ),
    ).toEqual([
      'message_start',
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'book', input: {} },
      },
      'ping',
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '' } },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '{"table":' },
      },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '4}' } },
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect((events(text)[7]![1] as { delta: { stop_reason: string } }).delta.stop_reason).toBe('tool_use');
  });

  it('answers without stream with one message JSON', async () => {
    const mock = createAnthropicMock({
      reply: {
        text: 'Ok.',
        toolUses: [{ id: 'toolu_2', name: 'book', input: { table: 2 } }],
        usage: { input_tokens: 3, output_tokens: 4 },
      },
    });
    const response = await mock.handle(post({ ...body, stream: undefined }));
    expect(await response.json()).toEqual({
      id: 'msg_mock_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-haiku-4-5',
      content: [
        { type: 'text', text: 'Ok.', citations: null },
        { type: 'tool_use', id: 'toolu_2', name: 'book', input: { table: 2 } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 3, output_tokens: 4 },
    });
  });

  it.each([
    [{ 'x-api-key': undefined }, 401, 'authentication_error', 'x-api-key header is required'],
    [{ 'x-api-key': 'nope' }, 401, 'authentication_error', 'invalid x-api-key'],
    [
      { 'anthropic-version': undefined },
      400,
      'invalid_request_error',
      'anthropic-version: header is required',
    ],
  ])('checks the headers %j -> %i %s', async (extra, status, type, message) => {
    const mock = createAnthropicMock({ apiKey: 'test-key' });
    const response = await mock.handle(post(body, extra));
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({
      type: 'error',
      error: { type, message },
      request_id: 'req_mock_1',
    });
  });

  it('takes the key as x-api-key or Bearer by default, and only the named one otherwise', async () => {
    const either = createAnthropicMock({ apiKey: 'k1' });
    expect((await either.handle(post(body, { 'x-api-key': 'k1' }))).status).toBe(200);
    expect(
      (await either.handle(post(body, { 'x-api-key': undefined, authorization: 'Bearer k1' }))).status,
    ).toBe(200);
    const wrongBearer = await either.handle(
      post(body, { 'x-api-key': undefined, authorization: 'Bearer k2' }),
    );
    expect(((await wrongBearer.json()) as { error: { message: string } }).error.message).toBe(
      'invalid bearer token',
    );
    const strict = createAnthropicMock({ apiKey: 'k1', authHeader: 'x-api-key' });
    expect(
      (await strict.handle(post(body, { 'x-api-key': undefined, authorization: 'Bearer k1' }))).status,
    ).toBe(401);
  });

  it('takes the key as Bearer with authHeader bearer, and refuses x-api-key then', async () => {
    const mock = createAnthropicMock({ apiKey: 'gw-key', authHeader: 'bearer' });
    expect(
      (await mock.handle(post(body, { 'x-api-key': undefined, authorization: 'Bearer gw-key' }))).status,
    ).toBe(200);
    expect((await mock.handle(post(body, { 'x-api-key': 'gw-key' }))).status).toBe(401);
  });

  it.each([
    [{ ...body, max_tokens: undefined }, 'max_tokens: Field required (a positive integer)'],
    [
      { ...body, messages: [{ role: 'system', content: 'x' }] },
      "messages.0.role: Input should be 'user' or 'assistant'",
    ],
    [{ ...body, messages: [] }, 'messages: at least one message is required'],
    [
      {
        ...body,
        messages: [
          { role: 'user', content: 'Book' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'book', input: {} }] },
          { role: 'user', content: 'no result' },
        ],
      },
      'messages.2: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1',
    ],
    [
      {
        ...body,
        messages: [
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'r' }] },
        ],
      },
      'messages.0.content: unexpected `tool_use_id` found in `tool_result` blocks: toolu_x. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    ],
  ])('refuses an invalid body with 400 invalid_request_error (%#)', async (json, message) => {
    const response = await createAnthropicMock().handle(post(json));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message },
      request_id: 'req_mock_1',
    });
  });

  it('fails the first calls with the status, Anthropic error type and retry-after, then serves', async () => {
    const mock = createAnthropicMock({ script: { failTimes: 2, failStatus: 529, retryAfter: '3' } });
    const first = await mock.handle(post(body));
    expect({ status: first.status, retryAfter: first.headers.get('retry-after') }).toEqual({
      status: 529,
      retryAfter: '3',
    });
    expect(await first.json()).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'mock failure 1 of 2' },
      request_id: 'req_mock_1',
    });
    expect((await mock.handle(post(body))).status).toBe(529);
    expect((await mock.handle(post(body))).status).toBe(200);
    expect(mock.calls()).toBe(3);
    mock.reset();
    expect({ calls: mock.calls(), requests: mock.requests.length }).toEqual({ calls: 0, requests: 0 });
  });

  it('sends an error event mid-stream and ends; endWithoutDone leaves out message_delta and message_stop', async () => {
    const faulty = createAnthropicMock({ script: { errorEventAfterChunks: 4 } });
    const names = events(await (await faulty.handle(post(body))).text());
    expect(names.map(([name]) => name)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'error',
    ]);
    expect(names[4]![1]).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
    });
    const cut = createAnthropicMock({ script: { endWithoutDone: true } });
    const cutNames = events(await (await cut.handle(post(body))).text()).map(([name]) => name);
    expect(cutNames.slice(-2)).toEqual(['content_block_delta', 'content_block_stop']);
  });

  it('waits the first-chunk delay through the injected delay', async () => {
    const time = createManualDelay();
    const mock = createAnthropicMock({ delay: time.delay, script: { firstChunkDelayMs: 250 } });
    const reading = mock.handle(post(body)).then((r) => r.text());
    expect(await time.release()).toBe(250);
    expect(events(await reading)).toHaveLength(11); // the default reply: five deltas
  });

  it('answers 404 not_found_error off /v1/messages', async () => {
    const response = await createAnthropicMock().handle(post(body, {}, '/v1/complete'));
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe('not_found_error');
  });
});

describe('anthropicHandlers through msw', () => {
  const mock = createAnthropicMock({ apiKey: 'test-key', reply: 'Hi there.' });
  const server = setupServer(
    ...anthropicHandlers({ baseUrl: 'https://api.anthropic.test/', provider: mock }),
  );
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('serves POST {baseUrl}/v1/messages to the global fetch', async () => {
    const response = await fetch('https://api.anthropic.test/v1/messages', {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    const deltas = events(await response.text()).flatMap(([name, data]) =>
      name === 'content_block_delta' ? [(data as { delta: { text: string } }).delta.text] : [],
    );
    expect(deltas).toEqual(['Hi ', 'there.']);
    expect(mock.requests[0]?.path).toBe('/v1/messages');
  });
});
