import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../src/errors/index.js';
import { MessageStreamAssembler, mapStopReason } from '../../../src/providers/anthropic/messages-stream.js';
import type { ChatEvent } from '../../../src/types/chat.js';

function run(events: Array<{ type: string } & Record<string, unknown>>): ChatEvent[] {
  const assembler = new MessageStreamAssembler('claude');
  return [...events.flatMap((event) => assembler.push(event)), ...assembler.finish()];
}

const start = (input_tokens: number) => ({
  type: 'message_start',
  message: { id: 'msg_1', role: 'assistant', content: [], usage: { input_tokens, output_tokens: 1 } },
});
const blockStart = (index: number, content_block: Record<string, unknown>) => ({
  type: 'content_block_start',
  index,
  content_block,
});
const delta = (index: number, d: Record<string, unknown>) => ({
  type: 'content_block_delta',
  index,
  delta: d,
});
const stop = (index: number) => ({ type: 'content_block_stop', index });
const messageDelta = (stop_reason: string, usage: Record<string, unknown>) => ({
  type: 'message_delta',
  delta: { stop_reason, stop_sequence: null },
  usage,
});

describe('mapStopReason', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['tool_use', 'tool-calls'],
    ['refusal', 'content-filter'],
    ['pause_turn', 'other'],
    ['something_new', 'other'],
  ])('%s -> %s', (reason, expected) => {
    expect(mapStopReason(reason)).toBe(expected);
  });
});

describe('MessageStreamAssembler', () => {
  it('yields text deltas, ignores ping, thinking and empty deltas, and finishes with usage', () => {
    expect(
      run([
        start(31),
        blockStart(0, { type: 'thinking', thinking: '' }),
        delta(0, { type: 'thinking_delta', thinking: 'hmm' }),
        delta(0, { type: 'signature_delta', signature: 'sig' }),
        stop(0),
        blockStart(1, { type: 'text', text: '' }),
        { type: 'ping' },
        delta(1, { type: 'text_delta', text: 'Hel' }),
        delta(1, { type: 'text_delta', text: '' }),
        delta(1, { type: 'text_delta', text: 'lo' }),
        stop(1),
        { type: 'some_future_event', data: 1 },
        messageDelta('end_turn', { output_tokens: 7 }),
      ]),
    ).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo' },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 31, outputTokens: 7 } },
    ]);
  });

  it('assembles a tool_use block from input_json_delta pieces into one tool-call at content_block_stop', () => {
    const assembler = new MessageStreamAssembler('claude');
    const before = [
      start(10),
      blockStart(0, { type: 'text', text: 'Sure.' }),
      stop(0),
      blockStart(1, { type: 'tool_use', id: 'toolu_9', name: 'book', input: {} }),
      delta(1, { type: 'input_json_delta', partial_json: '' }),
      delta(1, { type: 'input_json_delta', partial_json: '{"table":' }),
      delta(1, { type: 'input_json_delta', partial_json: ' 4}' }),
    ].flatMap((e) => assembler.push(e));
    expect(before).toEqual([{ type: 'text-delta', text: 'Sure.' }]);
    expect(assembler.push(stop(1))).toEqual([
      { type: 'tool-call', id: 'toolu_9', name: 'book', arguments: '{"table": 4}' },
    ]);
    assembler.push(messageDelta('tool_use', { output_tokens: 12, input_tokens: 11 }));
    expect(assembler.finish()).toEqual([
      { type: 'finish', finishReason: 'tool-calls', usage: { inputTokens: 11, outputTokens: 12 } },
    ]);
  });

  it("uses the start's input as arguments when a tool_use block has no delta", () => {
    expect(
      run([blockStart(0, { type: 'tool_use', id: 't', name: 'now', input: { tz: 'UTC' } }), stop(0)]),
    ).toEqual([
      { type: 'tool-call', id: 't', name: 'now', arguments: '{"tz":"UTC"}' },
      { type: 'finish', finishReason: 'other' },
    ]);
  });

  it('throws ProtocolError for input_json_delta on a text block, with partialOutput after text', () => {
    const assembler = new MessageStreamAssembler('claude');
    assembler.push(blockStart(0, { type: 'text', text: '' }));
    assembler.push(delta(0, { type: 'text_delta', text: 'x' }));
    let caught: unknown;
    try {
      assembler.push(delta(0, { type: 'input_json_delta', partial_json: '{}' }));
    } catch (error) {
      caught = error;
    }
    expect(ProtocolError.isInstance(caught)).toBe(true);
    expect((caught as ProtocolError).partialOutput).toBe(true);
    expect((caught as ProtocolError).provider).toBe('claude');
  });

  it('throws ProtocolError for a tool_use block without a name, and for one never stopped', () => {
    const a = new MessageStreamAssembler('claude');
    expect(() => a.push(blockStart(0, { type: 'tool_use', id: 't', input: {} }))).toThrowError(
      /tool_use block 0 has no id or name/,
    );
    const b = new MessageStreamAssembler('claude');
    b.push(blockStart(0, { type: 'tool_use', id: 't', name: 'f', input: {} }));
    expect(() => b.finish()).toThrowError(/tool_use block 0 was never stopped/);
  });

  it('throws ProtocolError naming the path when an event does not fit its schema', () => {
    const assembler = new MessageStreamAssembler('claude');
    let caught: unknown;
    try {
      assembler.push({
        type: 'content_block_delta',
        index: 'zero',
        delta: { type: 'text_delta', text: 'x' },
      });
    } catch (error) {
      caught = error;
    }
    expect(ProtocolError.isInstance(caught)).toBe(true);
    expect((caught as Error).message).toMatch(/^Unexpected Messages stream event at index:/);
    expect((caught as ProtocolError).partialOutput).toBe(false);
  });

  it('reports truncation with partialOutput as the output so far', () => {
    const assembler = new MessageStreamAssembler('claude');
    expect(assembler.truncated().partialOutput).toBe(false);
    assembler.push(blockStart(0, { type: 'text', text: 'Hi' }));
    const error = assembler.truncated();
    expect({
      message: error.message,
      retryable: error.retryable,
      partialOutput: error.partialOutput,
    }).toEqual({
      message: 'Messages stream ended before message_stop (truncated)',
      retryable: true,
      partialOutput: true,
    });
  });
});
