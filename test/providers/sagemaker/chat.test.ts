import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/errors/index.js';
import { createSageMakerAdapter } from '../../../src/providers/sagemaker/index.js';
import {
  type SageMakerEmulator,
  sageMakerChatEndpoint,
  startSageMakerEmulator,
} from '../../../src/testing/index.js';
import { attemptOf, collect, collectUntilError, credentials } from './helpers.js';

let emulator: SageMakerEmulator;
beforeAll(async () => {
  emulator = await startSageMakerEmulator({
    endpoints: {
      vllm: sageMakerChatEndpoint({ payload: 'openai-chat', reply: 'Table for two.' }),
      tgi: sageMakerChatEndpoint({ payload: 'tgi', reply: 'Table for two.' }),
      lmi: sageMakerChatEndpoint({ payload: 'jsonlines', reply: 'Table for two.' }),
      c20: { reply: { parts: ['{"outputs":[" a"]}\n', '{"outputs":[" b"]}'] } },
      split: sageMakerChatEndpoint({
        payload: 'openai-chat',
        reply: 'Caf\u00e9 cr\u00e8me \u{1F600}',
        script: { partBytes: 7 },
      }),
      c21a: {
        reply: { parts: ['data: {"t":"Hel"}\n\n'] },
        script: {
          errorEventAfterChunks: 1,
          errorEvent: { code: 'ModelInvocationTimeExceeded', message: 'timed out' },
        },
      },
      c21b: {
        reply: { parts: ['data: {"t":"Hel"}\n\n'] },
        script: {
          errorEventAfterChunks: 0,
          errorEvent: { type: 'InternalStreamFailure', message: 'internal' },
        },
      },
      truncated: sageMakerChatEndpoint({
        payload: 'tgi',
        reply: 'Hi there',
        script: { endWithoutDone: true },
      }),
    },
  });
});
afterAll(() => emulator.close());

const messages = [
  { role: 'system' as const, content: 'Be brief.' },
  { role: 'user' as const, content: 'Book a table' },
];

function adapter(endpointName: string, payload: string) {
  return createSageMakerAdapter({
    name: 'sm',
    region: 'us-east-1',
    endpointName,
    endpointUrl: emulator.url,
    credentials,
    chat: { payload },
  });
}

describe('SageMaker chat over the emulator (AWS SDK response stream)', () => {
  it("'openai-chat': sends the Chat Completions body without model for 'default' and reads SSE chunks", async () => {
    const events = await collect(
      adapter('vllm', 'openai-chat').chat!.chat(
        { model: 'default', messages, maxTokens: 64, temperature: 0 },
        attemptOf(),
      ),
    );
    expect(events).toEqual([
      { type: 'text-delta', text: 'Table ' },
      { type: 'text-delta', text: 'for ' },
      { type: 'text-delta', text: 'two.' },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 10, outputTokens: 3 } },
    ]);
    const record = emulator.requests.at(-1)!;
    expect(record.path).toBe('/endpoints/vllm/invocations-response-stream');
    expect(record.body).toEqual({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Book a table' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 64,
      temperature: 0,
    });
    expect(record.headers['content-type']).toBe('application/json');
    expect(record.headers['x-amzn-sagemaker-accept']).toBe('text/event-stream');
  });

  it("'openai-chat': names the configured model id in the body", async () => {
    await collect(adapter('vllm', 'openai-chat').chat!.chat({ model: 'llama-3-8b', messages }, attemptOf()));
    expect((emulator.requests.at(-1)!.body as { model: string }).model).toBe('llama-3-8b');
  });

  it("'tgi': renders the prompt, greedy for temperature 0, text from tokens and the finish reason from details", async () => {
    const events = await collect(
      adapter('tgi', 'tgi').chat!.chat({ model: 'default', messages, temperature: 0 }, attemptOf()),
    );
    expect(events).toEqual([
      { type: 'text-delta', text: 'Table ' },
      { type: 'text-delta', text: 'for ' },
      { type: 'text-delta', text: 'two.' },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect(emulator.requests.at(-1)!.body).toEqual({
      inputs: 'System: Be brief.\n\nUser: Book a table\n\nAssistant:',
      parameters: { details: true, return_full_text: false, do_sample: false },
      stream: true,
    });
  });

  it("'jsonlines': LMI token lines; the end of the stream ends the reply", async () => {
    const events = await collect(
      adapter('lmi', 'jsonlines').chat!.chat({ model: 'default', messages }, attemptOf()),
    );
    expect(events).toEqual([
      { type: 'text-delta', text: 'Table ' },
      { type: 'text-delta', text: 'for ' },
      { type: 'text-delta', text: 'two.' },
      { type: 'finish', finishReason: 'other' },
    ]);
    expect(emulator.requests.at(-1)!.headers['x-amzn-sagemaker-accept']).toBe('application/jsonlines');
  });

  it('C20: PayloadParts with an unterminated last line yield " a", " b" and complete promptly', async () => {
    const iterator = adapter('c20', 'jsonlines')
      .chat!.chat({ model: 'default', messages }, attemptOf())
      [Symbol.asyncIterator]();
    const events = [];
    for (;;) {
      const step = await iterator.next();
      if (step.done) break;
      events.push(step.value);
      if (step.value.type === 'text-delta' && step.value.text === ' b') break;
    }
    // " b" comes once the event stream has ended: what follows needs no I/O, so "promptly" is
    // before the next turn of the event loop (a splitter that spins never gets there).
    let ended = false;
    const rest = (async () => {
      for (let step = await iterator.next(); !step.done; step = await iterator.next())
        events.push(step.value);
      ended = true;
    })();
    await nextTurn();
    expect(ended, 'ended before the next turn of the event loop after " b"').toBe(true);
    await rest;
    expect(events).toEqual([
      { type: 'text-delta', text: ' a' },
      { type: 'text-delta', text: ' b' },
      { type: 'finish', finishReason: 'other' },
    ]);
  });

  it('SSE events and UTF-8 characters split across 7-byte PayloadParts come out whole', async () => {
    const events = await collect(
      adapter('split', 'openai-chat').chat!.chat({ model: 'default', messages }, attemptOf()),
    );
    expect(events.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text)).toEqual([
      'Caf\u00e9 ',
      'cr\u00e8me ',
      '\u{1F600}',
    ]);
    expect(emulator.requests.at(-1)!.chunksSent).toBeGreaterThan(40);
  });

  it('C21 (SDK throws): ModelStreamError after "Hel" is a retryable ProviderError with partialOutput', async () => {
    const codec = 'c21-sse';
    const { registerSageMakerCodec } = await import('../../../src/providers/sagemaker/index.js');
    registerSageMakerCodec(codec, {
      capability: 'chat',
      encode: () => ({ body: '{}', contentType: 'application/json' }),
      async *decode(parts) {
        const { jsonMessages } = await import('../../../src/providers/sagemaker/index.js');
        for await (const m of jsonMessages(parts, { provider: 'sm' })) {
          if (m.kind === 'json') yield { type: 'text-delta', text: (m.value as { t: string }).t };
        }
        yield { type: 'finish', finishReason: 'stop' };
      },
    });
    const { items, error } = await collectUntilError(
      adapter('c21a', codec).chat!.chat({ model: 'default', messages }, attemptOf()),
    );
    expect(items).toEqual([{ type: 'text-delta', text: 'Hel' }]);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      provider: 'sm',
      providerType: 'ModelStreamError',
      providerCode: 'ModelInvocationTimeExceeded',
      retryable: true,
      partialOutput: true,
      status: undefined,
    });
    expect((error as Error).message).toBe(
      "Provider 'sm' stream failed mid-stream (ModelStreamError/ModelInvocationTimeExceeded): timed out",
    );

    const before = await collectUntilError(
      adapter('c21b', codec).chat!.chat({ model: 'default', messages }, attemptOf()),
    );
    expect(before.items).toEqual([]);
    expect(before.error).toMatchObject({
      code: 'PROVIDER_ERROR',
      providerType: 'InternalStreamFailure',
      providerCode: 'InternalStreamFailure',
      retryable: true,
      partialOutput: false,
    });
  });

  it('a TGI stream that ends without its final message is a truncated ProtocolError with partialOutput', async () => {
    const { items, error } = await collectUntilError(
      adapter('truncated', 'tgi').chat!.chat({ model: 'default', messages }, attemptOf()),
    );
    expect(items).toEqual([
      { type: 'text-delta', text: 'Hi ' },
      { type: 'text-delta', text: 'there' },
    ]);
    expect(error).toMatchObject({ code: 'PROTOCOL_ERROR', retryable: true, partialOutput: true });
  });
});
