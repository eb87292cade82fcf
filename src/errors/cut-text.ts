/** A character a key or token can hold (base64, base64url, `_`, `-`, `.`). */
const KEY_CHAR = /[A-Za-z0-9+/=_.-]/;
/** A run of such characters at the end of a text. */
const TRAILING_RUN = /[A-Za-z0-9+/=_.-]+$/;

/**
 * `text` cut to at most `max` characters, ending in `…` when cut; where the cut would split a
 * run of key characters (a word, a token, an echoed key), the whole run is left out. Used where
 * a provider's text is cut before secrets are redacted: a key the cut split would otherwise
 * leave a start too short to be recognized as that key.
 */
export function cutBetweenTokens(text: string, max: number): string {
  if (text.length <= max) return text;
  let head = text.slice(0, max - 1);
  if (KEY_CHAR.test(text.charAt(max - 1)) && KEY_CHAR.test(head.charAt(head.length - 1)))
    head = head.replace(TRAILING_RUN, '');
  return `${head}…`;
}
