import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COUNTRY_REPLY } from '../../examples/self-hosted-server/responder.js';
import { type SelfHostedServer, startSelfHostedServer } from '../../examples/self-hosted-server/server.js';

const NOW = 1_700_000_000_123;
const CREATED = 1_700_000_000;

let server: SelfHostedServer;

// A server per test: it numbers its completions (chatcmpl-voxroute-N) from 1, so each test's
// ids are its own, whatever ran before it.
beforeEach(async () => {
  server = await startSelfHostedServer({ port: 0, chatWordGapMs: 0, now: () => NOW });
});
afterEach(() => server.close());

function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const COUNTRY_PIECES = [
  'You',
  ' asked',
  ' what',
  ' you',
  ' can',
  ' do',
  ' for',
  ' your',
  ' country.',
  ' Start',
  ' by',
  ' voting,',
  ' volunteering,',
  ' and',
  ' helping',
  ' a',
  ' neighbour.',
];

describe('POST /v1/chat/completions (voxroute-echo)', () => {
  it('streams OpenAI chat chunks word by word, then finish, usage and [DONE], byte for byte', async () => {
    const response = await post('/chat/completions', {
      model: 'voxroute-echo',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'What can I do for my country?' },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const body = await response.text();
    const id = 'chatcmpl-voxroute-1';
    const head = `{"id":"${id}","object":"chat.completion.chunk","created":${CREATED},"model":"voxroute-echo","system_fingerprint":null,"choices":`;
    const chunk = (delta: string, finish: string) =>
      `data: ${head}[{"index":0,"delta":${delta},"logprobs":null,"finish_reason":${finish}}],"usage":null}\n\n`;
    const expected = [
      chunk('{"role":"assistant","content":""}', 'null'),
      ...COUNTRY_PIECES.map((piece) => chunk(JSON.stringify({ content: piece }), 'null')),
      chunk('{}', '"stop"'),
      `data: ${head}[],"usage":{"prompt_tokens":9,"completion_tokens":17,"total_tokens":26}}\n\n`,
      'data: [DONE]\n\n',
    ].join('');
    expect(body).toBe(expected);
    expect(COUNTRY_PIECES.join('')).toBe(COUNTRY_REPLY);
  });

  it('leaves out usage entirely without stream_options.include_usage, and echoes other questions', async () => {
    const response = await post('/chat/completions', {
      model: 'voxroute-echo',
      stream: true,
      messages: [{ role: 'user', content: [{ type: 'text', text: '  Book a table   for two! ' }] }],
    });
    const events = (await response.text()).split('\n\n').filter((e) => e !== '');
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.slice('data: '.length)));
    expect(chunks.every((c) => !('usage' in c))).toBe(true);
    expect(chunks.map((c) => c.choices[0].delta.content ?? '').join('')).toBe(
      'I heard: Book a table for two. How can I help?',
    );
    expect(chunks.map((c) => c.choices[0].finish_reason)).toEqual([...Array(12).fill(null), 'stop']);
    expect(chunks[0].id).toBe('chatcmpl-voxroute-1');
  });

  it('stops at max_tokens words with finish_reason length', async () => {
    const response = await post('/chat/completions', {
      model: 'voxroute-echo',
      stream: true,
      max_tokens: 3,
      messages: [{ role: 'user', content: 'hello there' }],
    });
    const chunks = (await response.text())
      .split('\n\n')
      .filter((e) => e.startsWith('data: {'))
      .map((e) => JSON.parse(e.slice(6)));
    expect(chunks.map((c) => c.choices[0].delta.content ?? '').join('')).toBe('I heard: hello');
    expect(chunks.at(-1).choices[0].finish_reason).toBe('length');
  });

  it('answers one chat.completion JSON without stream', async () => {
    const response = await post('/chat/completions', {
      model: 'voxroute-echo',
      messages: [{ role: 'user', content: '' }],
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^chatcmpl-voxroute-\d+$/),
      object: 'chat.completion',
      created: CREATED,
      model: 'voxroute-echo',
      system_fingerprint: null,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'I did not hear anything. Could you say that again?',
            refusal: null,
          },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 0, completion_tokens: 10, total_tokens: 10 },
    });
  });

  it('is streamed correctly by the official openai client', async () => {
    const client = new OpenAI({ baseURL: server.baseUrl, apiKey: 'unused', maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'voxroute-echo',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'ask what you can do for your country' }],
    });
    let text = '';
    const finishes: (string | null)[] = [];
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.choices[0]) finishes.push(chunk.choices[0].finish_reason);
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe(COUNTRY_REPLY);
    expect(finishes.at(-1)).toBe('stop');
    expect(usage).toEqual({ prompt_tokens: 8, completion_tokens: 17, total_tokens: 25 });
  });

  it('answers 404 model_not_found for another model and 400 invalid_json for a broken body', async () => {
    const other = await post('/chat/completions', {
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({
      error: {
        message: "The model 'gpt-4o' does not exist. This server has 'voxroute-echo'.",
        type: 'invalid_request_error',
        param: 'model',
        code: 'model_not_found',
      },
    });
    const broken = await post('/chat/completions', '{"model":');
    expect(broken.status).toBe(400);
    expect((await broken.json()).error.code).toBe('invalid_json');
    const empty = await post('/chat/completions', { model: 'voxroute-echo', messages: [] });
    expect(empty.status).toBe(400);
    expect((await empty.json()).error).toMatchObject({ param: 'messages', code: 'invalid_value' });
  });
});
