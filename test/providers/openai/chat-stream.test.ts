import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../src/errors/index.js';
import {
  ChatStreamAssembler,
  mapFinishReason,
} from '../../../src/providers/shared/openai-wire/chat-stream.js';

describe('ChatStreamAssembler', () => {
  it('assembles tool calls from fragments by index and emits them at the finish reason, in index order', () => {
    const a = new ChatStreamAssembler('p');
    expect(
      a.push({
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [
                { index: 1, id: 'call_b', type: 'function', function: { name: 'time', arguments: '' } },
                {
                  index: 0,
                  id: 'call_a',
                  type: 'function',
                  function: { name: 'weather', arguments: '{"ci' },
                },
              ],
            },
          },
        ],
      }),
    ).toEqual([]);
    expect(
      a.push({
        choices: [
          { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: 'ty":"Paris"}' } }] } },
        ],
      }),
    ).toEqual([]);
    expect(
      a.push({
        choices: [{ index: 0, delta: { tool_calls: [{ index: 1, function: { arguments: '{}' } }] } }],
      }),
    ).toEqual([]);
    expect(a.hadOutput).toBe(false);
    expect(a.push({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] })).toEqual([
      { type: 'tool-call', id: 'call_a', name: 'weather', arguments: '{"city":"Paris"}' },
      { type: 'tool-call', id: 'call_b', name: 'time', arguments: '{}' },
    ]);
    expect(a.hadOutput).toBe(true);
    expect(a.push({ choices: [], usage: { prompt_tokens: 20, completion_tokens: 9 } })).toEqual([]);
    expect(a.end('done')).toEqual([
      { type: 'finish', finishReason: 'tool-calls', usage: { inputTokens: 20, outputTokens: 9 } },
    ]);
  });

  it('ignores other choices and empty content; emits refusal text', () => {
    const a = new ChatStreamAssembler('p');
    expect(
      a.push({
        choices: [
          { index: 1, delta: { content: 'other' } },
          { index: 0, delta: { content: '' } },
          { index: 0, delta: { refusal: 'I cannot.' } },
        ],
      }),
    ).toEqual([{ type: 'text-delta', text: 'I cannot.' }]);
  });

  it('gives a tool call without an id a stable one, and rejects one without a name', () => {
    const a = new ChatStreamAssembler('p');
    a.push({
      choices: [{ delta: { tool_calls: [{ index: 2, function: { name: 'f', arguments: '{}' } }] } }],
    });
    expect(a.end('done')).toEqual([
      { type: 'tool-call', id: 'call_2', name: 'f', arguments: '{}' },
      { type: 'finish', finishReason: 'other' },
    ]);
    const b = new ChatStreamAssembler('p');
    b.push({
      choices: [
        { delta: { tool_calls: [{ index: 0, function: { arguments: '{}' } }] }, finish_reason: null },
      ],
    });
    let error: unknown;
    try {
      b.end('done');
    } catch (e) {
      error = e;
    }
    expect(ProtocolError.isInstance(error)).toBe(true);
  });

  it('ends at end of body after a finish reason, and throws truncated without one', () => {
    const a = new ChatStreamAssembler('p');
    a.push({ choices: [{ delta: { content: 'Hi' }, finish_reason: 'length' }] });
    expect(a.end('eof')).toEqual([{ type: 'finish', finishReason: 'length' }]);
    const b = new ChatStreamAssembler('p');
    b.push({ choices: [{ delta: { content: 'Hi' } }] });
    try {
      b.end('eof');
      expect.unreachable();
    } catch (e) {
      expect(ProtocolError.isInstance(e)).toBe(true);
      expect(e).toMatchObject({ provider: 'p', retryable: true, partialOutput: true });
    }
  });

  it('maps every finish reason', () => {
    expect(
      ['stop', 'length', 'tool_calls', 'function_call', 'content_filter', 'abort'].map(mapFinishReason),
    ).toEqual(['stop', 'length', 'tool-calls', 'tool-calls', 'content-filter', 'other']);
  });
});
