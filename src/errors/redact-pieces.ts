import { foldCase } from './fold-case.js';

/** Characters of a secret that a piece must show to be redacted: the same as a shown start. */
const MIN_PIECE = 8;
/** A piece this long is redacted even inside a longer word (a key glued to other characters). */
const MIN_GLUED_PIECE = 16;
/** A key character: a word is a run of these. */
const KEY_CHAR = /[A-Za-z0-9_-]/;

/**
 * `text` with every piece of `secret` that a server echoed from its middle or end replaced by
 * `replacement`: a run of 8 or more consecutive characters of the secret that stands as a word
 * of its own (no key character, `[A-Za-z0-9_-]`, on either side: `key 3a9c1e5b2d4f6a8c not
 * allowed`, `...1b3d5f7a9c2e`, `"5b2d4f6a8c0e"`), or a run of 16 or more wherever it stands. A
 * server that strips a vendor prefix (`dg_`, `sk-`) before echoing a key, or shows its last
 * characters, would otherwise leave most of the key readable. A word that is exactly one of
 * `names` (provider names and other names of the config) stays. Shorter runs (the last 4
 * characters a dashboard shows) say nothing about a key and stay. Starts of a secret are left to
 * the caller's start rule (they may be followed by a mask).
 * Matched in any letter case (see foldCase).
 * Cost: one set of the secret's 8-character pieces, then one lookup per word of 8+ characters
 * and one per 8 characters of text.
 */
export function redactPieces(
  text: string,
  secret: string,
  replacement: string,
  names: ReadonlySet<string>,
): string {
  if (secret.length <= MIN_PIECE || text.length < MIN_PIECE) return text;
  // `folded` has the same indices as `text`.
  const folded = foldCase(text);
  const key = foldCase(secret);
  const pieces = new Set<string>();
  for (let i = 0; i + MIN_PIECE <= key.length; i++) pieces.add(key.slice(i, i + MIN_PIECE));
  let out = '';
  let from = 0;
  let i = 0;
  while (i + MIN_PIECE <= text.length) {
    // Look where a word starts (a piece standing alone) and every 8 characters (a run of 16 or
    // more holds an 8-character piece at one of those positions).
    const wordStart = KEY_CHAR.test(text[i]!) && (i === 0 || !KEY_CHAR.test(text[i - 1]!));
    if ((wordStart || i % MIN_PIECE === 0) && pieces.has(folded.slice(i, i + MIN_PIECE))) {
      const [runStart, end] = run(folded, i, key);
      const start = Math.max(runStart, from);
      if (redactable(text, start, end, names)) {
        out += `${text.slice(from, start)}${replacement}`;
        from = end;
        i = end;
        continue;
      }
    }
    i++;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** The longest run of `text` around the 8 characters at `at` that is consecutive characters of `secret`. */
function run(text: string, at: number, secret: string): [number, number] {
  const piece = text.slice(at, at + MIN_PIECE);
  let best: [number, number] = [at, at + MIN_PIECE];
  for (let j = secret.indexOf(piece); j !== -1; j = secret.indexOf(piece, j + 1)) {
    let left = 0;
    while (left < j && at - left > 0 && text[at - left - 1] === secret[j - left - 1]) left++;
    let right = MIN_PIECE;
    while (j + right < secret.length && text[at + right] === secret[j + right]) right++;
    if (left + right > best[1] - best[0]) best = [at - left, at + right];
  }
  return best;
}

/** Whether the run `text[start, end)` is a piece to redact (see {@link redactPieces}). */
function redactable(text: string, start: number, end: number, names: ReadonlySet<string>): boolean {
  let wordStart = start;
  while (wordStart > 0 && KEY_CHAR.test(text[wordStart - 1]!)) wordStart--;
  let wordEnd = end;
  while (wordEnd < text.length && KEY_CHAR.test(text[wordEnd]!)) wordEnd++;
  if (names.has(text.slice(wordStart, wordEnd))) return false;
  return end - start >= MIN_GLUED_PIECE || (wordStart === start && wordEnd === end);
}
