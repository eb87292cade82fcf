import { vi } from 'vitest';

/** Counts what is handed to any Intl.Segmenter's segment(). */
export function countSegmenting(): { calls: number; chars: number; longest: number } {
  const original = Intl.Segmenter.prototype.segment;
  const seen = { calls: 0, chars: 0, longest: 0 };
  vi.spyOn(Intl.Segmenter.prototype, 'segment').mockImplementation(function (
    this: Intl.Segmenter,
    text: string,
  ) {
    seen.calls++;
    seen.chars += text.length;
    seen.longest = Math.max(seen.longest, text.length);
    return original.call(this, text);
  });
  return seen;
}
