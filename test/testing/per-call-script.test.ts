import { describe, expect, it } from 'vitest';
import type { RouterConfig } from '../../src/index.js';
import { type AnthropicReply, createAnthropicMock } from '../../src/testing/anthropic/index.js';
import { createCartesiaMock } from '../../src/testing/cartesia/index.js';
import { createDeepgramMock } from '../../src/testing/deepgram/index.js';
import { createManualDelay, type Delay } from '../../src/testing/delay.js';
import { createElevenLabsMock } from '../../src/testing/elevenlabs/index.js';
import type { MockProvider } from '../../src/testing/mock-provider.js';
import { startMockProviders } from '../../src/testing/mock-providers.js';
import type { MockScript } from '../../src/testing/mock-script.js';
import type { ChatReply } from '../../src/testing/openai/chat.js';
import { createOpenAiCompatibleMock } from '../../src/testing/openai/mock.js';
import type { PerCall } from '../../src/testing/per-call.js';
import { createSageMakerMock } from '../../src/testing/sagemaker/index.js';

const json =
  (path: string, body: unknown, headers: Record<string, string> = {}) =>
  () =>
    new Request(`http://mock.test${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

/** Each mock made with `script` on its first HTTP endpoint, and one request to that endpoint. */
const mocks: Record<
  string,
  { make: (script: PerCall<MockScript>, delay?: Delay) => MockProvider; request: () => Request }
> = {
  openai: {
    make: (script, delay) => createOpenAiCompatibleMock({ script, delay }),
    request: json('/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
  },
  anthropic: {
    make: (script, delay) => createAnthropicMock({ script, delay }),
    request: json(
      '/v1/messages',
      { model: 'm', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }], stream: true },
      { 'anthropic-version': '2023-06-01' },
    ),
  },
  cartesia: {
    make: (script, delay) => createCartesiaMock({ script, delay }),
    request: json('/tts/bytes', {
      model_id: 'sonic-3',
      transcript: 'Hi there.',
      voice: { mode: 'id', id: 'v' },
      output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 16000 },
    }),
  },
  deepgram: {
    make: (script, delay) => createDeepgramMock({ script: { speak: script }, delay }),
    request: json('/v1/speak?model=aura-2-thalia-en&encoding=linear16&sample_rate=24000&container=none', {
      text: 'Hi',
    }),
  },
  elevenlabs: {
    make: (script, delay) => createElevenLabsMock({ script, delay }),
    request: json('/v1/text-to-speech/v1/stream?output_format=pcm_24000', {
      text: 'Hi',
      model_id: 'eleven_flash_v2_5',
    }),
  },
  sagemaker: {
    make: (script, delay) =>
      createSageMakerMock({ endpoints: { llm: { reply: { parts: ['ok'] } } }, script, delay }),
    request: json(
      '/endpoints/llm/invocations-response-stream',
      {},
      {
        authorization:
          'AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/sagemaker/aws4_request, Signature=00',
      },
    ),
  },
};

async function statuses(
  kind: string,
  script: PerCall<MockScript>,
  calls = 3,
): Promise<Array<number | 'reset'>> {
  const { make, request } = mocks[kind]!;
  const mock = make(script);
  const out: Array<number | 'reset'> = [];
  for (let i = 0; i < calls; i++) {
    const response = await mock.handle(request());
    if (response.type === 'error') {
      out.push('reset');
      continue;
    }
    await response.arrayBuffer();
    out.push(response.status);
  }
  return out;
}

describe('per-call script entries fail their own call', () => {
  for (const kind of Object.keys(mocks)) {
    it(`${kind}: the array entry for call K with failStatus fails call K, and only it`, async () => {
      expect(await statuses(kind, [{}, {}, { failStatus: 503 }])).toEqual([200, 200, 503]);
      expect(await statuses(kind, [{}, { failStatus: 429 }, {}])).toEqual([200, 429, 200]);
      expect(await statuses(kind, [{}, {}, { failStatus: 500, failTimes: 1 }])).toEqual([200, 200, 500]);
      expect(await statuses(kind, [{ failStatus: 500, failTimes: 0 }, {}])).toEqual([200, 200, 200]);
      expect(await statuses(kind, [{}, { resetAfterChunks: 0 }, {}])).toEqual([200, 'reset', 200]);
    });

    it(`${kind}: latency and stalls in an array entry apply to that call only`, async () => {
      const { make, request } = mocks[kind]!;
      const time = createManualDelay();
      const mock = make([{}, { headersDelayMs: 30 }, { stallAfterChunks: 0 }, {}], time.delay);
      const status = async (response: Response) => {
        await response.arrayBuffer();
        return response.status;
      };
      expect(await status(await mock.handle(request()))).toBe(200);
      const second = mock.handle(request());
      expect(await time.release()).toBe(30);
      expect(await status(await second)).toBe(200);
      const aborter = new AbortController();
      expect((await mock.handle(new Request(request(), { signal: aborter.signal }))).status).toBe(200);
      aborter.abort();
      expect(await mock.requests[2]!.ended).toBe('aborted');
      expect(await status(await mock.handle(request()))).toBe(200);
      expect(time.requested).toEqual([30]);
      expect(mock.requests.map((r) => [r.call, r.aborted, r.chunksSent > 0])).toEqual([
        [1, false, true],
        [2, false, true],
        [3, true, false],
        [4, false, true],
      ]);
    });

    it(`${kind}: failStatus in a function's result fails its call; failTimes there and in one script counts calls`, async () => {
      expect(await statuses(kind, ({ call }) => (call === 2 ? { failStatus: 502 } : {}))).toEqual([
        200, 502, 200,
      ]);
      expect(await statuses(kind, () => ({ failTimes: 1, failStatus: 503 }))).toEqual([503, 200, 200]);
      expect(await statuses(kind, { failTimes: 2, failStatus: 503 })).toEqual([503, 503, 200]);
      expect(await statuses(kind, { failStatus: 503 })).toEqual([200, 200, 200]);
    });
  }

  it('a WebSocket upgrade (Deepgram listen) takes the same rule: entry 2 refuses upgrade 2 only', () => {
    const mock = createDeepgramMock({ script: { listen: [{}, { failStatus: 429 }, {}] } });
    const status = () => {
      const upgrade = mock.upgrade(
        new Request('http://mock.test/v1/listen?model=nova-3&encoding=linear16&sample_rate=16000'),
      );
      return 'reject' in upgrade ? upgrade.reject?.status : 'accepted';
    };
    expect([status(), status(), status()]).toEqual(['accepted', 429, 'accepted']);
  });
});

describe('a bad reply option is a TypeError naming the field at creation', () => {
  const chat = { model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: false };

  it('OpenAI toolCalls arguments: an object is sent as its JSON text; a number is refused at creation', async () => {
    const mock = createOpenAiCompatibleMock({
      chat: { toolCalls: [{ name: 'book', arguments: { table: 4 } }] },
    });
    const response = await mock.handle(json('/v1/chat/completions', chat)());
    expect(response.status).toBe(200);
    const body = (await response.json()) as { choices: Array<{ message: { tool_calls: unknown[] } }> };
    expect(body.choices[0]!.message.tool_calls).toEqual([
      { id: 'call_0', type: 'function', function: { name: 'book', arguments: '{"table":4}' } },
    ]);
    const bad = { toolCalls: [{ name: 'book', arguments: 4 }] } as unknown as ChatReply;
    expect(() => createOpenAiCompatibleMock({ chat: bad })).toThrow(
      new TypeError(
        'createOpenAiCompatibleMock: options.chat.toolCalls.0.arguments: expected a string (JSON text), an array of strings or an object',
      ),
    );
    expect(() => createOpenAiCompatibleMock({ chat: ['ok', bad] })).toThrow(
      new TypeError(
        'createOpenAiCompatibleMock: options.chat.1.toolCalls.0.arguments: expected a string (JSON text), an array of strings or an object',
      ),
    );
    expect(() =>
      createOpenAiCompatibleMock({ chat: { toolCalls: [{ arguments: '{}' }] } as unknown as ChatReply }),
    ).toThrow(
      new TypeError('createOpenAiCompatibleMock: options.chat.toolCalls.0.name: expected a non-empty string'),
    );
  });

  it("a finish reason the wire does not have is a TypeError listing the wire's values (OpenAI and Anthropic)", async () => {
    for (const finishReason of ['tool-calls', 'bogus', 42]) {
      expect(() =>
        createOpenAiCompatibleMock({ chat: { text: 'hi', finishReason } as unknown as ChatReply }),
      ).toThrow(
        new TypeError(
          'createOpenAiCompatibleMock: options.chat.finishReason: expected one of stop, length, tool_calls, content_filter',
        ),
      );
    }
    const allowed = createOpenAiCompatibleMock({ chat: { text: 'hi', finishReason: 'length' } });
    const answer = await allowed.handle(json('/v1/chat/completions', chat)());
    const sent = (await answer.json()) as { choices: Array<{ finish_reason: string }> };
    expect(sent.choices[0]!.finish_reason).toBe('length');
    expect(() =>
      createAnthropicMock({ reply: { text: 'hi', stopReason: 'stop' } as unknown as AnthropicReply }),
    ).toThrow(
      new TypeError(
        'createAnthropicMock: options.reply.stopReason: expected one of end_turn, max_tokens, stop_sequence, tool_use, refusal, pause_turn',
      ),
    );
  });

  it('Anthropic toolUses input takes the same check', () => {
    const bad = { toolUses: [{ name: 'book', input: 4 }] } as unknown as AnthropicReply;
    expect(() => createAnthropicMock({ reply: bad })).toThrow(
      new TypeError(
        'createAnthropicMock: options.reply.toolUses.0.input: expected a string (JSON text), an array of strings or an object',
      ),
    );
  });

  it('startMockProviders names the provider, and starts nothing', async () => {
    const config = {
      providers: { a: { kind: 'openai-compatible', baseUrl: 'http://unused.test/v1', apiKey: 'k' } },
    } as unknown as RouterConfig;
    await expect(
      startMockProviders(config, {
        providers: { a: { chat: { toolCalls: [{ name: 'book', arguments: 4 as unknown as string }] } } },
      }),
    ).rejects.toThrow(
      new TypeError(
        'startMockProviders: options.providers.a.chat.toolCalls.0.arguments: expected a string (JSON text), an array of strings or an object',
      ),
    );
  });
});
