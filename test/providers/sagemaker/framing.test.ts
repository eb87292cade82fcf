import { describe, expect, it } from 'vitest';
import { ProtocolError, ProviderError } from '../../../src/errors/index.js';
import { jsonMessages } from '../../../src/providers/sagemaker/framing.js';
import { collect, collectUntilError, encoder, partsOf } from './helpers.js';

describe('jsonMessages', () => {
  it('reads SSE events split across parts and several events in one part (parseSse)', async () => {
    const text = 'data: {"n":1}\n\ndata: {"n":2}\n\ndata: {"n":"\u00e9"}\n\ndata: [DONE]\n\n';
    const bytes = encoder.encode(text);
    const parts = [bytes.subarray(0, 7), bytes.subarray(7, 40), bytes.subarray(40, 50), bytes.subarray(50)];
    expect(await collect(jsonMessages(partsOf(parts), { provider: 'sm' }))).toEqual([
      { kind: 'json', event: undefined, value: { n: 1 } },
      { kind: 'json', event: undefined, value: { n: 2 } },
      { kind: 'json', event: undefined, value: { n: '\u00e9' } },
      { kind: 'done' },
    ]);
  });

  it('detects JSON lines from the first byte (after blanks) and ends on a last line without newline', async () => {
    const messages = await collect(
      jsonMessages(partsOf(['\n ', ' {"a":1}\n{"a"', ':2}']), { provider: 'sm' }),
    );
    expect(messages).toEqual([
      { kind: 'json', event: undefined, value: { a: 1 } },
      { kind: 'json', event: undefined, value: { a: 2 } },
    ]);
  });

  it('throws the ProviderError of an error message in JSON lines, and ProtocolError for a line that is not JSON', async () => {
    const failed = await collectUntilError(
      jsonMessages(partsOf(['{"a":1}\n{"error":{"message":"overloaded","type":"server_error"}}\n']), {
        provider: 'sm',
      }),
    );
    expect(failed.items).toHaveLength(1);
    expect(ProviderError.isInstance(failed.error)).toBe(true);
    expect(failed.error).toMatchObject({ provider: 'sm', providerType: 'server_error', retryable: true });

    const bad = await collectUntilError(
      jsonMessages(partsOf(['{"a":1}\n{oops\n']), { provider: 'sm', framing: 'jsonlines' }),
    );
    expect(ProtocolError.isInstance(bad.error)).toBe(true);
    expect((bad.error as Error).message).toBe('JSON line is not JSON (5 characters)');
  });

  it('ends at a [DONE] line in JSON lines', async () => {
    expect(await collect(jsonMessages(partsOf(['{"a":1}\n[DONE]\n{"a":2}\n']), { provider: 'sm' }))).toEqual([
      { kind: 'json', event: undefined, value: { a: 1 } },
      { kind: 'done' },
    ]);
  });

  it('an empty stream gives no message', async () => {
    expect(await collect(jsonMessages(partsOf([]), { provider: 'sm' }))).toEqual([]);
  });
});
