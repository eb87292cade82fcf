import { describe, expect, it } from 'vitest';
import { VoxrouteError } from '../../../src/errors/index.js';
import {
  messagesRequest,
  messagesRequestBody,
  toWireMessages,
} from '../../../src/providers/anthropic/messages-request.js';

describe('messagesRequestBody', () => {
  it('moves the one system message to the top-level system string and sets max_tokens from the default', () => {
    expect(
      messagesRequestBody(
        {
          model: 'claude-haiku-4-5',
          messages: [
            { role: 'system', content: 'You book tables.' },
            { role: 'user', content: 'A table for 4.' },
          ],
        },
        1024,
      ),
    ).toEqual({
      model: 'claude-haiku-4-5',
      max_tokens: 1024,
      system: 'You book tables.',
      messages: [{ role: 'user', content: 'A table for 4.' }],
      stream: true,
    });
  });

  it('keeps several system messages as text blocks, in order, wherever they stand', () => {
    const body = messagesRequestBody(
      {
        model: 'm',
        maxTokens: 64,
        temperature: 0.2,
        messages: [
          { role: 'system', content: 'One.' },
          { role: 'user', content: 'Hi' },
          { role: 'system', content: 'Two.' },
        ],
      },
      1024,
    );
    expect(body.system).toEqual([
      { type: 'text', text: 'One.' },
      { type: 'text', text: 'Two.' },
    ]);
    expect(body.max_tokens).toBe(64);
    expect(body.temperature).toBe(0.2);
    expect(body.messages).toEqual([{ role: 'user', content: 'Hi' }]);
  });

  it('maps tools to {name, description, input_schema} and leaves an empty tool list out', () => {
    const parameters = { type: 'object', properties: { table: { type: 'integer' } }, required: ['table'] };
    const body = messagesRequestBody(
      {
        model: 'm',
        messages: [{ role: 'user', content: 'Book' }],
        tools: [
          { name: 'book', description: 'Books a table', parameters },
          { name: 'cancel', parameters: {} },
        ],
      },
      1,
    );
    expect(body.tools).toEqual([
      { name: 'book', description: 'Books a table', input_schema: parameters },
      { name: 'cancel', input_schema: {} },
    ]);
    expect('tools' in messagesRequestBody({ model: 'm', messages: [], tools: [] }, 1)).toBe(false);
  });
});

describe('toWireMessages', () => {
  it('turns tool calls into tool_use blocks and parallel tool results plus a user text into one user turn', () => {
    expect(
      toWireMessages([
        { role: 'user', content: 'Book two tables' },
        {
          role: 'assistant',
          content: 'Booking.',
          toolCalls: [
            { id: 'toolu_1', name: 'book', arguments: '{"table":4}' },
            { id: 'toolu_2', name: 'book', arguments: '' },
          ],
        },
        { role: 'tool', toolCallId: 'toolu_1', content: 'booked 4' },
        { role: 'tool', toolCallId: 'toolu_2', content: 'booked 2' },
        { role: 'user', content: 'Thanks' },
        { role: 'assistant', content: 'Done.' },
      ]),
    ).toEqual([
      { role: 'user', content: 'Book two tables' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Booking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'book', input: { table: 4 } },
          { type: 'tool_use', id: 'toolu_2', name: 'book', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'booked 4' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: 'booked 2' },
          { type: 'text', text: 'Thanks' },
        ],
      },
      { role: 'assistant', content: 'Done.' },
    ]);
  });

  it('leaves out the text block of an assistant message whose text is empty', () => {
    expect(
      toWireMessages([
        { role: 'assistant', content: '', toolCalls: [{ id: 't', name: 'f', arguments: '{}' }] },
      ]),
    ).toEqual([{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] }]);
  });

  it.each([
    ['not JSON', '{"table":'],
    ['not an object', '[1,2]'],
  ])('throws a usage VoxrouteError for tool-call arguments that are %s', (_what, args) => {
    let caught: unknown;
    try {
      toWireMessages([
        { role: 'assistant', content: '', toolCalls: [{ id: 't', name: 'f', arguments: args }] },
      ]);
    } catch (error) {
      caught = error;
    }
    expect(VoxrouteError.isInstance(caught)).toBe(true);
    expect((caught as VoxrouteError).code).toBe('VOXROUTE_ERROR');
    expect((caught as Error).message).toMatch(/^Tool call 't' \(f\) has arguments that are not/);
  });
});

describe('messagesRequestBody: a trailing assistant prefill (midStream continue)', () => {
  it('trims the white space at its end, which the Messages API refuses', () => {
    const body = messagesRequestBody(
      {
        model: 'claude',
        messages: [
          { role: 'user', content: 'What is 2+2?' },
          { role: 'assistant', content: 'The answer ' },
        ],
      },
      256,
    );
    expect(body.messages).toEqual([
      { role: 'user', content: 'What is 2+2?' },
      { role: 'assistant', content: 'The answer' },
    ]);
  });

  it('trims the last text block when assistant messages in a row were merged into blocks', () => {
    const body = messagesRequestBody(
      {
        model: 'claude',
        messages: [
          { role: 'user', content: 'What is 2+2?' },
          { role: 'assistant', content: 'Well,' },
          { role: 'assistant', content: 'the answer is ' },
        ],
      },
      256,
    );
    expect(body.messages).toEqual([
      { role: 'user', content: 'What is 2+2?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Well,' },
          { type: 'text', text: 'the answer is' },
        ],
      },
    ]);
  });

  it('drops trailing text blocks of white space only, then trims the one before', () => {
    const body = messagesRequestBody(
      {
        model: 'claude',
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello \n' },
          { role: 'assistant', content: ' ' },
          { role: 'assistant', content: '\n' },
        ],
      },
      256,
    );
    expect(body.messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] },
    ]);
  });

  it('says what white space the prefill lost, across the blocks it dropped (the seam its continuation repeats)', () => {
    const request = (messages: Parameters<typeof messagesRequest>[0]['messages']) =>
      messagesRequest({ model: 'claude', messages }, 256).trimmed;
    expect(
      request([
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello \n' },
        { role: 'assistant', content: ' ' },
        { role: 'assistant', content: '\n' },
      ]),
    ).toBe(' \n \n');
    expect(
      request([
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'def f():\n' },
      ]),
    ).toBe('\n');
    expect(
      request([
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
      ]),
    ).toBe('');
    expect(request([{ role: 'user', content: 'Hi ' }])).toBe('');
  });

  it('leaves an assistant message that ends with a tool_use block as it is', () => {
    const body = messagesRequestBody(
      {
        model: 'claude',
        messages: [
          { role: 'user', content: 'Book it.' },
          { role: 'assistant', content: 'On it. ', toolCalls: [{ id: 't1', name: 'book', arguments: '{}' }] },
        ],
      },
      256,
    );
    expect(body.messages.at(-1)).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'On it. ' },
        { type: 'tool_use', id: 't1', name: 'book', input: {} },
      ],
    });
  });
});
