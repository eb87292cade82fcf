/**
 * Two tools of one chat() request with the same name: providers refuse the request (Anthropic and
 * DeepSeek answer 400 "tools: Tool names must be unique", Gemini "Duplicate function
 * declaration"), and where one does not, a model's call of that name cannot be told apart. It is
 * a RequestError naming the second tool's name, before any provider is contacted: the loopback
 * server (OpenAI's chat SSE on node:http) sees no request.
 */
import { describe, expect, it } from 'vitest';
import { type ChatRequest, RequestError } from '../../src/index.js';
import { answerChat, drain, httpServer, router } from './wire/servers.js';

const USER = { role: 'user' as const, content: 'What is the weather in Paris?' };
const WEATHER = { name: 'get_weather', parameters: { type: 'object' } };
const TIME = { name: 'get_time', parameters: { type: 'object' } };

async function run(tools: ChatRequest['tools']) {
  const server = await httpServer((req, res) => {
    req.resume();
    answerChat(res, 'Sunny.');
  });
  const r = router({
    providers: { a: { kind: 'openai-compatible', baseUrl: server.url, chat: { models: { fast: 'm' } } } },
    routes: { chat: { providers: ['a'] } },
  });
  const result = await drain(r.chat({ model: 'fast', messages: [USER], ...(tools ? { tools } : {}) }));
  return { ...result, hits: server.hits };
}

describe('tool names of one chat() request are distinct', () => {
  it('the same name twice in a row: RequestError at tools.1.name', async () => {
    const { error, hits } = await run([WEATHER, { ...WEATHER, description: 'again' }]);
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).field).toBe('tools.1.name');
    expect((error as RequestError).message).toBe(
      "Invalid request field 'tools.1.name': 'get_weather' is also the name of tools.0 (each tool needs its own name)",
    );
    expect(hits).toBe(0);
  });

  it('a name repeated after another tool: the field is the repeat, the message the first', async () => {
    const { error, hits } = await run([TIME, WEATHER, TIME]);
    expect((error as RequestError).field).toBe('tools.2.name');
    expect((error as RequestError).message).toBe(
      "Invalid request field 'tools.2.name': 'get_time' is also the name of tools.0 (each tool needs its own name)",
    );
    expect(hits).toBe(0);
  });

  it('names that differ only in case are distinct tools and reach the provider', async () => {
    const { items, error, hits } = await run([WEATHER, { ...WEATHER, name: 'Get_Weather' }]);
    expect(error).toBeUndefined();
    expect(items.map((e) => e.type)).toEqual(['text-delta', 'finish']);
    expect(hits).toBe(1);
  });
});
