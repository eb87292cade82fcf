import { setImmediate as nextTurn } from 'node:timers/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../src/errors/index.js';
import { splitLines } from '../../../src/providers/sagemaker/lines.js';
import { SEEDED } from '../../helpers/property-seed.js';
import { collect, collectUntilError, encoder, partsOf } from './helpers.js';

describe('splitLines', () => {
  it('C20: yields an unterminated last line and ends at once when the stream ends', async () => {
    // The parts come without I/O: "at once" is before the next turn of the event loop (a
    // splitter that spins on the tail never gets there, whatever the machine's speed).
    let ended = false;
    const collecting = collect(splitLines(partsOf(['{"outputs":[" a"]}\n', '{"outputs":[" b"]}']))).finally(
      () => {
        ended = true;
      },
    );
    await nextTurn();
    expect(ended, 'ended before the next turn of the event loop').toBe(true);
    expect(await collecting).toEqual(['{"outputs":[" a"]}', '{"outputs":[" b"]}']);
  });

  it('splits several lines in one part, joins a line split over parts, drops CR of CRLF and blank lines', async () => {
    const lines = await collect(splitLines(partsOf(['a\r\nb\n\n  \nc', 'd', 'e\r', '\nf\n'])));
    expect(lines).toEqual(['a', 'b', 'cde', 'f']);
  });

  it('decodes a UTF-8 character split across parts and drops a BOM', async () => {
    const bytes = encoder.encode('\uFEFF{"t":"h\u00e9\u{1F600}"}\n');
    const parts = [bytes.subarray(0, 2), bytes.subarray(2, 10), bytes.subarray(10, 13), bytes.subarray(13)];
    expect(await collect(splitLines(partsOf(parts)))).toEqual(['{"t":"h\u00e9\u{1F600}"}']);
  });

  it('gives the same lines whatever the part boundaries (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.string({ unit: 'grapheme', minLength: 1 }).filter((s) => !/[\r\n]/.test(s) && s.trim() !== ''),
          {
            maxLength: 8,
          },
        ),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.boolean(),
        async (lines, cuts, trailingNewline) => {
          const bytes = encoder.encode(lines.join('\n') + (trailingNewline ? '\n' : ''));
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
          const parts: Uint8Array[] = [];
          let from = 0;
          for (const p of [...points, bytes.length]) {
            parts.push(bytes.subarray(from, p));
            from = p;
          }
          expect(await collect(splitLines(partsOf(parts)))).toEqual(lines);
        },
      ),
      { ...SEEDED, numRuns: 200 },
    );
  });

  it('throws a ProtocolError for a line longer than maxLineChars', async () => {
    const { items, error } = await collectUntilError(
      splitLines(partsOf(['ok\n', 'x'.repeat(20)]), { provider: 'sm', maxLineChars: 10 }),
    );
    expect(items).toEqual(['ok']);
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ provider: 'sm', offset: 23, retryable: true });
  });

  it('a line longer than maxLineChars throws however the stream is cut: whole in one part, or the last line', async () => {
    // A whole line inside one part (and the last line of the stream) went through unchecked,
    // while the same line split over two parts threw.
    const whole = await collectUntilError(
      splitLines(partsOf(['ok\nabcdefghijklmnop\nnext\n']), { maxLineChars: 10 }),
    );
    expect(whole.items).toEqual(['ok']);
    expect(ProtocolError.isInstance(whole.error)).toBe(true);
    expect(whole.error).toMatchObject({ message: 'Line longer than 10 characters at byte 25', offset: 25 });
    const last = await collectUntilError(splitLines(partsOf(['ok\n', 'abcdefghijk']), { maxLineChars: 10 }));
    expect(last.items).toEqual(['ok']);
    expect(last.error).toMatchObject({ message: 'Line longer than 10 characters at byte 14', offset: 14 });
    // Exactly maxLineChars is fine, with or without CRLF, in one part or split.
    expect(
      await collect(splitLines(partsOf(['abcdefghij\r\n', 'abcde', 'fghij']), { maxLineChars: 10 })),
    ).toEqual(['abcdefghij', 'abcdefghij']);
  });

  it('a maxLineChars that is not a whole number >= 1 is a RangeError at the first step', async () => {
    for (const maxLineChars of [0, -1, 2.5, Number.NaN]) {
      const { items, error } = await collectUntilError(splitLines(partsOf(['a\n']), { maxLineChars }));
      expect(items).toEqual([]);
      expect(error).toEqual(
        new RangeError(`splitLines: maxLineChars must be a whole number >= 1, got ${maxLineChars}`),
      );
    }
  });
});
