import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../src/errors/index.js';
import {
  contentBlockDeltaShape,
  contentBlockStartShape,
  contentBlockStopShape,
  messageDeltaShape,
  messageStartShape,
  streamEventShape,
} from '../../../src/providers/anthropic/api-types.js';
import { speechEventShape, transcriptionJsonShape } from '../../../src/providers/openai/api-types.js';
import {
  chatChunkShape,
  transcriptionEventShape,
} from '../../../src/providers/shared/openai-wire/api-types.js';
import { parseWire } from '../../../src/providers/shared/parse-wire.js';
import type { WireShape } from '../../../src/providers/shared/wire-shape.js';
import { SEEDED } from '../../helpers/property-seed.js';

const SHAPES: Record<string, WireShape<unknown>> = {
  chatChunkShape,
  speechEventShape,
  transcriptionEventShape,
  transcriptionJsonShape,
  messageStartShape,
  contentBlockStartShape,
  contentBlockDeltaShape,
  contentBlockStopShape,
  messageDeltaShape,
  streamEventShape,
};

/** Leaves that sit on either side of each check: strings, literals, counts, null, odd numbers. */
const leaf = fc.oneof(
  fc.constantFrom(
    'message_start',
    'content_block_start',
    'content_block_delta',
    'content_block_stop',
    'message_delta',
    'text',
    '',
    0,
    1,
    7,
    -1,
    1.5,
    2 ** 53,
    null,
    true,
  ),
  fc.string({ maxLength: 3 }),
);
const KEYS = [
  'choices',
  'usage',
  'index',
  'delta',
  'content',
  'refusal',
  'tool_calls',
  'id',
  'type',
  'function',
  'name',
  'arguments',
  'finish_reason',
  'prompt_tokens',
  'completion_tokens',
  'audio',
  'object',
  'text',
  'message',
  'input_tokens',
  'output_tokens',
  'content_block',
  'input',
  'partial_json',
  'stop_reason',
  'other',
];
/** JSON-like values built from the fields the shapes read, so that many fit and many do not. */
const { value: wireValue } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('object'), tie('array')),
  object: fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 5 }),
  array: fc.array(tie('value'), { maxLength: 3 }),
}));

/** Values that fit each shape (found by generation would be rare for the deep ones). */
const FITTING: Record<string, unknown[]> = {
  chatChunkShape: [
    { choices: [{ index: 0, delta: { role: 'assistant', content: 'hi' }, finish_reason: null }] },
    {
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [{ index: 0, id: 'c', type: 'function', function: { name: 'f', arguments: '{' } }],
          },
        },
      ],
      obfuscation: 'x',
    },
    { choices: [], usage: { prompt_tokens: 3, completion_tokens: 4 } },
    {
      choices: [
        { index: 0, delta: { tool_calls: [{ id: 'c', function: { name: 'f', arguments: { x: [1] } } }] } },
      ],
    },
  ],
  speechEventShape: [
    { type: 'speech.audio.delta', audio: 'AAA=' },
    { type: 'speech.audio.done', usage: {} },
  ],
  transcriptionEventShape: [
    { type: 'transcript.text.delta', delta: 'he' },
    { object: 'transcription.chunk', choices: [{ delta: { content: 'x' }, finish_reason: null }] },
  ],
  transcriptionJsonShape: [{ text: 'hello' }],
  messageStartShape: [
    { type: 'message_start', message: { id: 'm', usage: { input_tokens: 3, output_tokens: 1 } } },
  ],
  contentBlockStartShape: [
    {
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', id: 't', name: 'f', input: {} },
    },
  ],
  contentBlockDeltaShape: [
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'a' } },
  ],
  contentBlockStopShape: [{ type: 'content_block_stop', index: 0 }],
  messageDeltaShape: [
    { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } },
  ],
  streamEventShape: [{ type: 'ping' }],
};

describe('wire shapes: the plain check agrees with the zod schema', () => {
  for (const [name, shape] of Object.entries(SHAPES)) {
    it(`${name}: fits(value) exactly when the schema accepts it, and the value is then used as the schema outputs it`, () => {
      const check = (value: unknown) => {
        const parsed = shape.schema().safeParse(value);
        expect(shape.fits(value)).toBe(parsed.success);
        if (parsed.success) expect(value).toEqual(parsed.data);
      };
      for (const value of FITTING[name] ?? []) {
        expect(shape.fits(value)).toBe(true);
        check(value);
      }
      fc.assert(fc.property(wireValue, check), { ...SEEDED, numRuns: 400 });
      // Each field of a fitting value replaced by each leaf: fits and zod agree on every one.
      for (const value of FITTING[name] ?? []) {
        for (const key of Object.keys(value as object)) {
          for (const bad of [null, 1.5, -1, 'x', [], {}, true]) check({ ...(value as object), [key]: bad });
        }
      }
    });
  }
});

describe('parseWire with a wire shape', () => {
  it('returns a fitting frame as it is, without running the schema', () => {
    const frame = { choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: null }] };
    expect(parseWire(chatChunkShape, frame, 'p', 'chat chunk', false)).toBe(frame);
  });

  it('throws the same ProtocolError as the zod schema, with the field path, for a frame that does not fit', () => {
    const frame = { choices: [{ index: 0, delta: { content: 5 } }] };
    let thrown: unknown;
    try {
      parseWire(chatChunkShape, frame, 'p', 'chat chunk', true);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ProtocolError);
    expect((thrown as ProtocolError).message).toBe(
      'Unexpected chat chunk at choices.0.delta.content: Invalid input: expected string, received number',
    );
    expect((thrown as ProtocolError).provider).toBe('p');
    expect((thrown as ProtocolError).partialOutput).toBe(true);
  });

  it('a negative or fractional index is refused, as zod refuses it', () => {
    expect(() =>
      parseWire(contentBlockStopShape, { type: 'content_block_stop', index: -1 }, 'p', 'event', false),
    ).toThrow(/^Unexpected event at index: /);
    expect(() =>
      parseWire(contentBlockStopShape, { type: 'content_block_stop', index: 0.5 }, 'p', 'event', false),
    ).toThrow(/^Unexpected event at index: /);
  });
});
