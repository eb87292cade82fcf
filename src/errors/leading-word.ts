/**
 * A run of a secret this long is redacted even when it lies within the secret's leading word: no
 * ordinary word is 16 letters of a key.
 */
export const MIN_WORD_RUN = 16;

/**
 * The longest leading word spared: 8 letters (`internal`, `voxroute`, `Bearer`, `sk`). A longer
 * first segment (`correcthorse-battery-staple`) may be the secret's own words: it is redacted.
 */
export const MAX_LEADING_WORD = 8;

/** The leading letters of a secret, and what stands after them. */
const LEADING = /^[A-Za-z]+/;
/** A separator that ends a secret's first segment (`internal-gw-...`, `sk_car_...`, `Bearer ...`). */
const SEPARATOR = /[-_.:/ ]/;
/** Letters written as a word: all lower case, all upper case, or one capital then lower case. */
const WORD_CASE = /^(?:[a-z]+|[A-Z]+|[A-Z][a-z]+)$/;

/**
 * How many characters of `secret` (as configured, before any case-folding) are its leading word:
 * its first segment (up to the first `-`, `_`, `.`, `:`, `/` or space; a secret with no separator
 * has none) when that segment is at most {@link MAX_LEADING_WORD} letters in one case (`internal` of `internal-gw-7f3a...`, `voxroute` of
 * `voxroute-mock-key`, `sk` of `sk-proj-...`, `Bearer` of `Bearer <token>`); else 0 (a random
 * body from the first character: `3a9c1e5b...` of a Deepgram key, `AbCdEfGh12...`, or letters
 * that go on with digits, `qwxzkfpa7...`).
 *
 * Text that shows only this word of a key (and fewer than {@link MIN_WORD_RUN} characters) is an
 * ordinary word, not an echo of the key: "internal error" beside the key `internal-gw-7f3a...`,
 * a path `node_modules/voxroute/...` beside `voxroute-mock-key`. A start that runs past it
 * (`internal-gw`, `sk-proj-`) or holds any of the body is redacted as before.
 */
export function leadingWord(secret: string): number {
  const letters = LEADING.exec(secret)?.[0];
  if (letters === undefined || !WORD_CASE.test(letters)) return 0;
  if (letters.length > MAX_LEADING_WORD) return 0;
  // A secret of letters only (`correcthorsebatterystaple`) has no body after a word: all secret.
  const after = secret[letters.length];
  return after !== undefined && SEPARATOR.test(after) ? letters.length : 0;
}

/** Whether characters `[from, to)` of a secret whose leading word is `word` long show that word only. */
export function withinLeadingWord(from: number, to: number, word: number): boolean {
  return to <= word && to - from < MIN_WORD_RUN;
}

/** Where a secret's leading words stand: `[start, end)` of each (see {@link wordSpans}). */
export type WordSpans = ReadonlyArray<readonly [number, number]>;

/** The last space of a secret, as written or URL-encoded, and what follows it. */
const LAST_SPACE = /(?: |%20)(?!.*(?: |%20))/;

/**
 * The leading words of `secret` (see {@link leadingWord}): its own, and that of the token after
 * its last space, written ` ` or `%20` (`internal` of `Bearer internal-gw-7f3a...`, a header
 * value whose token is also a secret on its own). Empty spans are left out.
 */
export function wordSpans(secret: string): WordSpans {
  const spans: Array<readonly [number, number]> = [];
  const word = leadingWord(secret);
  if (word > 0) spans.push([0, word]);
  const space = LAST_SPACE.exec(secret);
  if (space !== null) {
    const from = space.index + space[0].length;
    const token = leadingWord(secret.slice(from));
    // With the space before it: ` internal` shows no more of the key than `internal`.
    if (token > 0) spans.push([space.index, from + token]);
  }
  return spans;
}

/** Whether characters `[from, to)` of a secret lie within one of its leading words (`spans`), under 16 characters. */
export function withinWordSpans(from: number, to: number, spans: WordSpans): boolean {
  return to - from < MIN_WORD_RUN && spans.some(([start, end]) => from >= start && to <= end);
}
