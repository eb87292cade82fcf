import { expect, it } from 'vitest';
import { createVoxroute, RequestError } from '../../src/ai-sdk/index.js';
import { AllProvidersFailedError } from '../../src/index.js';
import { ALWAYS_503, describeAiSdk, twoProviders } from './helpers.js';

describeAiSdk('voxroute/ai-sdk: languageModel with the real ai package', () => {
  it('streamText streams the reply of the provider that served after a 503, with finish, usage and voxroute metadata', async () => {
    const { streamText } = await import('ai');
    const { router, a, b } = await twoProviders({ script: ALWAYS_503 }, { chat: 'Your table is booked.' });
    const result = streamText({
      model: createVoxroute(router).languageModel('fast'),
      prompt: 'Book a table.',
    });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    expect(deltas).toEqual(['Your ', 'table ', 'is ', 'booked.']);
    expect(await result.text).toBe('Your table is booked.');
    expect(await result.finishReason).toBe('stop');
    const usage = await result.usage;
    expect([usage.inputTokens, usage.outputTokens]).toEqual([Math.ceil('Book a table.'.length / 4), 4]);
    const meta = (await result.providerMetadata)?.voxroute as { provider: string; attempts: unknown[] };
    expect(meta.provider).toBe('b');
    expect(meta.attempts).toEqual([
      { provider: 'a', outcome: 'failed' },
      { provider: 'b', outcome: 'success' },
    ]);
    // voxroute fell back once; the AI SDK did not retry on top.
    expect([a.calls('chat'), b.calls('chat')]).toEqual([1, 1]);
    expect(b.requests[0]!.body).toMatchObject({
      model: 'llama-8b',
      stream: true,
      messages: [{ role: 'user', content: 'Book a table.' }],
    });
  });

  it('streamText returns tool calls with their parsed input; tools reach the provider as JSON Schema', async () => {
    const { jsonSchema, streamText, tool } = await import('ai');
    const { router, b } = await twoProviders(
      { script: ALWAYS_503 },
      { chat: { toolCalls: [{ id: 'call_7', name: 'book', arguments: '{"table":4}' }] } },
    );
    const parameters = {
      type: 'object',
      properties: { table: { type: 'number' } },
      required: ['table'],
    } as const;
    const result = streamText({
      model: createVoxroute(router).languageModel('fast'),
      prompt: 'Table four, please.',
      tools: {
        book: tool({ description: 'Books a table', inputSchema: jsonSchema<{ table: number }>(parameters) }),
      },
    });
    const calls = await result.toolCalls;
    expect(calls.map((c) => [c.toolCallId, c.toolName, c.input])).toEqual([['call_7', 'book', { table: 4 }]]);
    expect(await result.finishReason).toBe('tool-calls');
    const sent = b.requests[0]!.body as { tools: unknown[] };
    expect(sent.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'book',
          description: 'Books a table',
          parameters: expect.objectContaining(parameters),
        },
      },
    ]);
  });

  it('generateText sends system, assistant tool calls and tool results as voxroute messages', async () => {
    const { generateText } = await import('ai');
    const { router, a } = await twoProviders({ chat: 'Booked for four.' });
    const { text, response } = await generateText({
      model: createVoxroute(router).languageModel('fast'),
      system: 'You book tables.',
      messages: [
        { role: 'user', content: 'Table for four.' },
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'book', input: { table: 4 } }],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'call_1',
              toolName: 'book',
              output: { type: 'json', value: { ok: true } },
            },
          ],
        },
      ],
    });
    expect(text).toBe('Booked for four.');
    expect(response.modelId).toBe('fast');
    const sent = a.requests[0]!.body as { messages: unknown[] };
    expect(sent.messages).toEqual([
      { role: 'system', content: 'You book tables.' },
      { role: 'user', content: 'Table for four.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'book', arguments: '{"table":4}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"ok":true}' },
    ]);
  });

  it('a route where every provider fails reports AllProvidersFailedError to onError, each provider called once', async () => {
    const { streamText } = await import('ai');
    const { router, a, b } = await twoProviders({ script: ALWAYS_503 }, { script: ALWAYS_503 });
    const errors: unknown[] = [];
    const result = streamText({
      model: createVoxroute(router).languageModel('fast'),
      prompt: 'Hello?',
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    // streamText reports the stream's error to onError and rejects its promises with its own error.
    await expect(result.text).rejects.toMatchObject({ name: 'AI_NoOutputGeneratedError' });
    expect(errors).toHaveLength(1);
    expect(AllProvidersFailedError.isInstance(errors[0])).toBe(true);
    expect([a.calls('chat'), b.calls('chat')]).toEqual([1, 1]);
  });

  it('a file part is refused with RequestError before any provider is called', async () => {
    const { generateText } = await import('ai');
    const { router, a } = await twoProviders();
    const call = generateText({
      model: createVoxroute(router).languageModel('fast'),
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'file', data: new Uint8Array([1, 2, 3]), mediaType: 'application/octet-stream' },
          ],
        },
      ],
    });
    const error = await call.catch((e: unknown) => e);
    expect(RequestError.isInstance(error)).toBe(true);
    expect((error as RequestError).field).toBe('prompt[0].content[1]');
    expect(a.calls('chat')).toBe(0);
  });

  it('works through createProviderRegistry, with a named route from the second argument', async () => {
    const { createProviderRegistry, generateText } = await import('ai');
    const { router, a, b } = await twoProviders({ chat: 'From a.' }, { chat: 'From b.' });
    const vox = createVoxroute(router);
    const registry = createProviderRegistry({ vox });
    expect((await generateText({ model: registry.languageModel('vox:fast'), prompt: 'Hi' })).text).toBe(
      'From a.',
    );
    const onlyB = vox.languageModel('fast', { route: 'chat-b' });
    expect((await generateText({ model: onlyB, prompt: 'Hi' })).text).toBe('From b.');
    expect([a.calls('chat'), b.calls('chat')]).toEqual([1, 1]);
    expect(() => vox.embeddingModel('e')).toThrow(RequestError);
  });
});
