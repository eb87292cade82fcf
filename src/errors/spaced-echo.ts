/**
 * Characters a server may write, one at a time, between the characters of a key it echoes
 * (`s k - t e s t`, `s.k.-.t.e.s.t`): spaces (also no-break and thin ones), a tab, and the
 * punctuation used to spell something out.
 */
const SEPARATORS = new Set([
  ' ',
  '\t',
  '\u00a0',
  '\u2009',
  '\u202f',
  '.',
  ',',
  ':',
  ';',
  '|',
  '/',
  '_',
  '-',
  '\u00b7',
]);

/** A letter or digit: a spelled-out character glued to one belongs to that word. */
const WORD_CHAR = /[\p{L}\p{N}]/u;
/** A character of a key: a run is trimmed to start and end on one. */
const KEY_CHAR = /[A-Za-z0-9_-]/;

const isToken = (c: string | undefined): c is string => c !== undefined && c.trim() !== '';

/**
 * `text` with each spelled-out run (single characters each followed by the same separator,
 * {@link SEPARATORS}: `s k - t e s t - 1 2 3 4`) of at least `min` characters replaced by
 * `redact` of the run's characters put together (`sk-test-1234`) when that redacts something;
 * every other run, and all text outside runs, stays as it is, so ordinary prose (which has few
 * single-character words in a row, and none spelling a secret) is never changed. A run is
 * trimmed to start and end on a key character, and loses a first or last character glued to
 * a word (`xs k ...`: `s` belongs to `xs`). Returns `text` itself when nothing was redacted.
 * Cost: one pass over the text, and `redact` once per run of `min` characters or more.
 */
export function redactSpacedRuns(text: string, redact: (run: string) => string, min: number): string {
  let out = '';
  let from = 0;
  let i = 0;
  while (i + 2 < text.length) {
    const separator = text[i + 1]!;
    if (!isToken(text[i]) || !SEPARATORS.has(separator) || !isToken(text[i + 2])) {
      i++;
      continue;
    }
    // Characters at first, first + 2, ..., last.
    let end = i + 2;
    while (text[end + 1] === separator && isToken(text[end + 2])) end += 2;
    let first = i;
    let last = end;
    if (first > 0 && WORD_CHAR.test(text[first - 1]!)) first += 2;
    if (last + 1 < text.length && WORD_CHAR.test(text[last + 1]!)) last -= 2;
    while (first <= last && !KEY_CHAR.test(text[first]!)) first += 2;
    while (last >= first && !KEY_CHAR.test(text[last]!)) last -= 2;
    if ((last - first) / 2 + 1 >= min) {
      let run = '';
      for (let k = first; k <= last; k += 2) run += text[k];
      const redacted = redact(run);
      if (redacted !== run) {
        out += text.slice(from, first) + redacted;
        from = last + 1;
        i = from;
        continue;
      }
    }
    // The run's last character may begin a run with another separator (`: s.k.-...`).
    i = end;
  }
  return from === 0 ? text : out + text.slice(from);
}
