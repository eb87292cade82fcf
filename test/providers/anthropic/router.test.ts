import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type ChatEvent,
  createRouter,
  MidStreamError,
  ProviderError,
  type RouterConfig,
} from '../../../src/index.js';
import {
  type AnthropicMock,
  anthropicHandlers,
  createAnthropicMock,
  createOpenAiCompatibleMock,
  type MockScript,
  type OpenAiCompatibleMock,
  openAiCompatibleHandlers,
  startMockServer,
} from '../../../src/testing/index.js';
import { drain as collect } from '../../helpers/index.js';

type Mode = 'loopback' | 'msw';
const msw = setupServer();
beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
afterEach(() => msw.resetHandlers());
afterAll(() => msw.close());

const ANTHROPIC_KEY = 'sk-ant-router-test-0123';
const OPENAI_KEY = 'sk-oai-router-test-4567';

interface Pair {
  claude: AnthropicMock;
  ec2: OpenAiCompatibleMock;
  config: (order: ['claude', 'ec2'] | ['ec2', 'claude']) => RouterConfig;
  options: { fetch?: typeof globalThis.fetch };
  close(): Promise<void>;
}

async function serve(mode: Mode, claudeScript: MockScript, ec2Script: MockScript): Promise<Pair> {
  const claude = createAnthropicMock({
    apiKey: ANTHROPIC_KEY,
    script: claudeScript,
    reply: { text: 'Claude booked it.', usage: { input_tokens: 20, output_tokens: 3 } },
  });
  const ec2 = createOpenAiCompatibleMock({ apiKey: OPENAI_KEY, script: ec2Script, chat: 'Llama booked it.' });
  let urls: { claude: string; ec2: string };
  let close = async () => {};
  if (mode === 'loopback') {
    const [a, b] = await Promise.all([
      startMockServer({ provider: claude }),
      startMockServer({ provider: ec2 }),
    ]);
    urls = { claude: a.url, ec2: `${b.url}/v1` };
    close = async () => {
      await Promise.all([a.close(), b.close()]);
    };
  } else {
    urls = { claude: 'https://api.anthropic.test', ec2: 'https://ec2.router.test/v1' };
    msw.use(
      ...anthropicHandlers({ baseUrl: urls.claude, provider: claude }),
      ...openAiCompatibleHandlers({ baseUrl: urls.ec2, provider: ec2 }),
    );
  }
  return {
    claude,
    ec2,
    options: mode === 'msw' ? { fetch: globalThis.fetch } : {},
    close,
    config: (order) => ({
      providers: {
        claude: {
          kind: 'anthropic',
          baseUrl: urls.claude,
          apiKey: ANTHROPIC_KEY,
          chat: { models: { fast: 'claude-haiku-4-5' }, maxTokens: 200 },
        },
        ec2: {
          kind: 'openai-compatible',
          baseUrl: urls.ec2,
          apiKey: OPENAI_KEY,
          chat: { models: { fast: 'meta-llama/Llama-3.1-8B-Instruct' } },
        },
      },
      routes: { chat: { providers: order, strategy: 'priority' } },
    }),
  };
}

const request = {
  model: 'fast',
  messages: [
    { role: 'system' as const, content: 'You book tables.' },
    { role: 'user' as const, content: 'A table for four.' },
  ],
};

const textOf = (items: ChatEvent[]) =>
  items.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');

describe.each<Mode>(['loopback', 'msw'])('createRouter with an anthropic provider over %s', (mode) => {
  it('C30: anthropic failing 529 falls back to the openai-compatible provider, which streams the reply', async () => {
    const p = await serve(mode, { failTimes: 9, failStatus: 529, retryAfter: '2' }, {});
    const router = createRouter(p.config(['claude', 'ec2']), p.options);
    try {
      const stream = router.chat(request);
      const { items, error } = await collect(stream);
      expect(error).toBeUndefined();
      expect(textOf(items)).toBe('Llama booked it.');
      expect(items.filter((e) => e.type === 'finish')).toEqual([items.at(-1)]);
      expect(items.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
      const result = await stream.result;
      expect(result.provider).toBe('ec2');
      expect(result.attempts.map((a) => [a.provider, a.outcome])).toEqual([
        ['claude', 'failed'],
        ['ec2', 'success'],
      ]);
      const first = result.attempts[0]!.error as ProviderError;
      expect(ProviderError.isInstance(first)).toBe(true);
      expect([first.status, first.providerType, first.retryable, first.retryAfterMs]).toEqual([
        529,
        'overloaded_error',
        true,
        2000,
      ]);
      expect(first.message).not.toContain(ANTHROPIC_KEY);
      const sent = p.claude.requests[0]!;
      expect(sent.headers['x-api-key']).toBe(ANTHROPIC_KEY);
      expect(sent.body).toMatchObject({
        model: 'claude-haiku-4-5',
        max_tokens: 200,
        system: 'You book tables.',
      });
      expect([p.claude.calls(), p.ec2.calls('chat')]).toEqual([1, 1]);
    } finally {
      await router.close();
      await p.close();
    }
  });

  it('C30: the openai-compatible provider failing 503 falls back to anthropic, which streams the reply', async () => {
    const p = await serve(mode, {}, { failTimes: 9, failStatus: 503 });
    const router = createRouter(p.config(['ec2', 'claude']), p.options);
    try {
      const stream = router.chat(request);
      const { items, error } = await collect(stream);
      expect(error).toBeUndefined();
      expect(items).toEqual([
        { type: 'text-delta', text: 'Claude ' },
        { type: 'text-delta', text: 'booked ' },
        { type: 'text-delta', text: 'it.' },
        { type: 'finish', finishReason: 'stop', usage: { inputTokens: 20, outputTokens: 3 } },
      ]);
      const result = await stream.result;
      expect(result.provider).toBe('claude');
      expect((result.attempts[0]!.error as ProviderError).status).toBe(503);
      expect(await p.claude.requests[0]!.ended).toBe('completed');
    } finally {
      await router.close();
      await p.close();
    }
  });

  it('C06: an anthropic overloaded error event after text ends the call with MidStreamError holding the text', async () => {
    const p = await serve(mode, { errorEventAfterChunks: 5 }, {});
    const router = createRouter(p.config(['claude', 'ec2']), p.options);
    try {
      const { items, error } = await collect(router.chat(request));
      expect(textOf(items)).toBe('Claude booked ');
      expect(MidStreamError.isInstance(error)).toBe(true);
      expect((error as MidStreamError).partialText).toBe('Claude booked ');
      const cause = (error as MidStreamError).cause as ProviderError;
      expect([ProviderError.isInstance(cause), cause.providerType, cause.partialOutput]).toEqual([
        true,
        'overloaded_error',
        true,
      ]);
      expect(p.ec2.calls('chat')).toBe(0);
    } finally {
      await router.close();
      await p.close();
    }
  });
});
