/** A character a key or token can hold (base64, base64url, `_`, `-`, `.`). */
const KEY_CHAR = /[A-Za-z0-9+/=_.-]/;

/**
 * `text` cut to at most `max` characters, ending in `…` when cut; where the cut would split a
 * run of key characters (a word, a token, an echoed key), the whole run is left out. Used where
 * a provider's text is cut before secrets are redacted: a key the cut split would otherwise
 * leave a start too short to be recognized as that key.
 */
export function cutBetweenTokens(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  // Walked back one character at a time: a regular expression anchored at the end (`[...]+$`)
  // tries every start and takes time in the square of the text's runs (seconds at 64 Ki).
  if (KEY_CHAR.test(text.charAt(end))) while (end > 0 && KEY_CHAR.test(text.charAt(end - 1))) end--;
  return `${text.slice(0, end)}…`;
}
