/**
 * The SageMaker codec helpers (jsonMessages, splitLines, renderPrompt) called from untyped
 * code with a wrong argument throw a TypeError naming the function and the argument instead of
 * an engine error ("Cannot destructure property 'provider' of 'options' as it is undefined").
 */
import { describe, expect, it } from 'vitest';
import { jsonMessages, renderPrompt, splitLines } from '../../../src/index.js';
import { collectUntilError } from '../../helpers/index.js';
import { partsOf } from './helpers.js';

describe('jsonMessages and splitLines: TypeError at the first step, before reading the source', () => {
  it('jsonMessages without options, with a source that is not async iterable, or a wrong framing', async () => {
    const cases: Array<[() => AsyncIterable<unknown>, string]> = [
      [
        () => jsonMessages(partsOf(['{}\n']), undefined as never),
        'jsonMessages(source, options): options must be an object ({ provider, framing?, detectErrors? }), got undefined',
      ],
      [
        () => jsonMessages(partsOf(['{}\n']), {} as never),
        'jsonMessages: options.provider must be a string, got undefined',
      ],
      [
        () => jsonMessages(null as never, { provider: 'sm' }),
        'jsonMessages(source, options): source must be an async iterable of Uint8Array (the PayloadPart bytes), got null',
      ],
      [
        () => jsonMessages(partsOf(['{}\n']), { provider: 'sm', framing: 'ndjson' as never }),
        "jsonMessages: options.framing must be 'sse', 'jsonlines' or 'auto', got string",
      ],
    ];
    for (const [call, message] of cases) {
      const { items, error } = await collectUntilError(call());
      expect(items).toEqual([]);
      expect(error).toEqual(new TypeError(message));
      expect(error).toBeInstanceOf(TypeError);
    }
  });

  it('splitLines with a source that is not async iterable, or options that are not an object', async () => {
    const cases: Array<[() => AsyncIterable<unknown>, string]> = [
      [
        () => splitLines(null as never),
        'splitLines(source, options?): source must be an async iterable of Uint8Array, got null',
      ],
      [
        () => splitLines(partsOf(['a\n']), null as never),
        'splitLines: options must be an object ({ provider?, maxLineChars? }), got null',
      ],
      [
        () => splitLines(partsOf(['a\n']), { provider: 5 } as never),
        'splitLines: options.provider must be a string, got number',
      ],
    ];
    for (const [call, message] of cases) {
      const { items, error } = await collectUntilError(call());
      expect(items).toEqual([]);
      expect(error).toEqual(new TypeError(message));
      expect(error).toBeInstanceOf(TypeError);
    }
  });
});

describe('renderPrompt: the messages are checked', () => {
  it('messages that are not an array, or a message that is not one, is a TypeError naming it', () => {
    // renderPrompt(null) was "Cannot read properties of null (reading 'map')".
    expect(() => renderPrompt(null as never)).toThrow(
      new TypeError('renderPrompt(messages): messages must be an array of ChatMessage, got null'),
    );
    expect(() => renderPrompt('Hi' as never)).toThrow(
      new TypeError('renderPrompt(messages): messages must be an array of ChatMessage, got string'),
    );
    expect(() => renderPrompt([{ role: 'user', content: 'Hi' }, null] as never)).toThrow(
      new TypeError('renderPrompt: messages[1] must be a ChatMessage ({ role, content }), got null'),
    );
    expect(() => renderPrompt([{ role: 'bot', content: 'Hi' }] as never)).toThrow(
      new TypeError(
        "renderPrompt: messages[0].role must be 'system', 'user', 'assistant' or 'tool', got 'bot'",
      ),
    );
    expect(() => renderPrompt([{ role: 'user' }] as never)).toThrow(
      new TypeError('renderPrompt: messages[0].content must be a string, got undefined'),
    );
    expect(renderPrompt([{ role: 'user', content: 'Hi' }])).toBe('User: Hi\n\nAssistant:');
  });
});
