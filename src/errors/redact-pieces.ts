import { type WordSpans, withinWordSpans } from './leading-word.js';

/** Characters of a secret that a piece must show to be redacted: the same as a shown start. */
const MIN_PIECE = 8;
/** A piece this long is redacted even inside a longer word (a key glued to other characters). */
const MIN_GLUED_PIECE = 16;

/**
 * `text` with every piece of a secret that a server echoed from its middle or end replaced by
 * `replacement`: a run of 8 or more consecutive characters of a secret that stands as a word
 * of its own (no key character, `[A-Za-z0-9_-]`, on either side: `key 3a9c1e5b2d4f6a8c not
 * allowed`, `...1b3d5f7a9c2e`, `"5b2d4f6a8c0e"`), or a run of 16 or more wherever it stands. A
 * server that strips a vendor prefix (`dg_`, `sk-`) before echoing a key, or shows its last
 * characters, would otherwise leave most of the key readable. A word that is exactly one of
 * `names` (provider names and other names of the config) stays. Shorter runs (the last 4
 * characters a dashboard shows) say nothing about a key and stay, and so does a run within the
 * secret's leading word (`voxroute` of `voxroute-mock-key` in a path `node_modules/voxroute/`,
 * `internal` of `internal-gw-7f3a...`: see leadingWord) shorter than 16 characters. Starts of a
 * secret are left to the caller's start rule (they may be followed by a mask).
 * Matched in any letter case: `folded` is `text` case-folded (see foldCase), with the same
 * indices, and `index` the secrets' pieces ({@link pieceIndex}), built once by the caller.
 * Cost: one pass over `text`, whatever the number of secrets: one lookup per word start and
 * one per 8 characters, then a compare with each secret holding a piece found.
 */
export function redactPieces(
  text: string,
  folded: string,
  index: PieceIndex,
  replacement: string,
  names: ReadonlySet<string>,
): string {
  if (index.size === 0 || text.length < MIN_PIECE) return text;
  let out = '';
  let from = 0;
  let i = 0;
  while (i + MIN_PIECE <= text.length) {
    // Look where a word starts (a piece standing alone) and every 8 characters (a run of 16 or
    // more holds an 8-character piece at one of those positions).
    const wordStart = isKeyChar(text, i) && (i === 0 || !isKeyChar(text, i - 1));
    const keys = wordStart || i % MIN_PIECE === 0 ? index.get(folded.slice(i, i + MIN_PIECE)) : undefined;
    if (keys !== undefined) {
      // The longest run to redact of the secrets holding this piece.
      let best: [number, number] | undefined;
      for (const { key, words } of keys) {
        const [runStart, end, keyStart] = run(folded, i, key);
        const start = Math.max(runStart, from);
        if (withinWordSpans(keyStart + start - runStart, keyStart + end - runStart, words)) continue;
        if ((best === undefined || end - start > best[1] - best[0]) && redactable(text, start, end, names))
          best = [start, end];
      }
      if (best !== undefined) {
        out += `${text.slice(from, best[0])}${replacement}`;
        from = best[1];
        i = best[1];
        continue;
      }
    }
    i++;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** A secret (case-folded) holding a piece, and where its leading words stand (see wordSpans). */
interface Holder {
  readonly key: string;
  readonly words: WordSpans;
}

/** Secrets' pieces: each run of 8 characters of a secret -> the secrets holding it. */
export type PieceIndex = ReadonlyMap<string, readonly Holder[]>;

/**
 * The {@link PieceIndex} of `keys` (secrets or their forms, case-folded: see foldCase; `words[i]`
 * the leading words of `keys[i]`, read before folding: see wordSpans): the runs of 8 characters
 * of each key longer than 8. Built once per list of secrets, not per text.
 */
export function pieceIndex(keys: readonly string[], words: readonly WordSpans[]): PieceIndex {
  const index = new Map<string, Holder[]>();
  for (const [k, key] of keys.entries()) {
    if (key.length <= MIN_PIECE) continue;
    const holder = { key, words: words[k] ?? [] };
    for (let i = 0; i + MIN_PIECE <= key.length; i++) {
      const piece = key.slice(i, i + MIN_PIECE);
      const holders = index.get(piece);
      if (holders === undefined) index.set(piece, [holder]);
      else if (holders.at(-1) !== holder) holders.push(holder);
    }
  }
  return index;
}

/** Whether `text[i]` is a key character, `[A-Za-z0-9_-]`: a word is a run of these. */
function isKeyChar(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return (
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x5f ||
    c === 0x2d
  );
}

/**
 * The longest run of `text` around the 8 characters at `at` that is consecutive characters of
 * `secret`: its start and end in `text`, and where it starts in `secret`.
 */
function run(text: string, at: number, secret: string): [number, number, number] {
  const piece = text.slice(at, at + MIN_PIECE);
  let best: [number, number, number] = [at, at + MIN_PIECE, secret.indexOf(piece)];
  for (let j = best[2]; j !== -1; j = secret.indexOf(piece, j + 1)) {
    let left = 0;
    while (left < j && at - left > 0 && text[at - left - 1] === secret[j - left - 1]) left++;
    let right = MIN_PIECE;
    while (j + right < secret.length && text[at + right] === secret[j + right]) right++;
    if (left + right > best[1] - best[0]) best = [at - left, at + right, j - left];
  }
  return best;
}

/** Whether the run `text[start, end)` is a piece to redact (see {@link redactPieces}). */
function redactable(text: string, start: number, end: number, names: ReadonlySet<string>): boolean {
  let wordStart = start;
  while (wordStart > 0 && isKeyChar(text, wordStart - 1)) wordStart--;
  let wordEnd = end;
  while (wordEnd < text.length && isKeyChar(text, wordEnd)) wordEnd++;
  if (names.has(text.slice(wordStart, wordEnd))) return false;
  return end - start >= MIN_GLUED_PIECE || (wordStart === start && wordEnd === end);
}
