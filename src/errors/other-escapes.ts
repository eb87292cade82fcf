/**
 * Escapes, other than JSON's `\uXXXX`, in which a server may write some or all of the characters
 * of a key it echoes: URL percent-escapes (`%2D`, also encoded twice, `%252D`), HTML numeric
 * character references (`&#45;`, `&#x2d;`) and the few named ones of key characters (`&sol;`,
 * `&plus;`, `&equals;`, `&lowbar;`, `&period;`; `&hyphen;` and `&dash;` as `-`), C-style hex escapes
 * (`\x2d`), and JSON's `\n`, `\r`, `\t` before a key character (a server that wraps a long token
 * it quotes; read as a space, so that a JSON text stays valid JSON). The
 * hyphens that typography puts for `-` (U+2010, and the non-breaking U+2011 that keeps a token on
 * one line) are read as `-` too. The redactor matches secrets on the text with them decoded (see
 * redactDecoded): an echo with only some characters escaped (`sk%2Dtest%2D...`, as an encoder
 * that escapes `-` writes it, or a key encoded twice) reads as the key, and matches none of the
 * key's whole encoded forms.
 *
 * Percent, HTML and hex escapes are decoded only to a visible ASCII character, and never to `"`,
 * `\`, `%` or `&`, so that decoding makes no new escape or quote.
 */

/** A percent-escape, possibly encoded again (`%2573` is `%73` encoded: `s`). */
const PERCENT = /%(?:25)*([0-9A-Fa-f]{2})/g;
/** An HTML numeric character reference, decimal or hex. */
const HTML_NUMERIC = /&#(?:([0-9]{1,7})|[xX]([0-9A-Fa-f]{1,6}));/g;
/** The HTML named references of characters keys hold. */
const HTML_NAMED: Readonly<Record<string, string>> = {
  '&sol;': '/',
  '&plus;': '+',
  '&equals;': '=',
  '&lowbar;': '_',
  '&period;': '.',
  '&hyphen;': '-',
  '&dash;': '-',
};
const HTML_NAMED_RE = /&(?:sol|plus|equals|lowbar|period|hyphen|dash);/g;
/**
 * JSON's escapes of white space before a key character (a token wrapped in two: the escape's
 * letter would otherwise join the token's next part), not after another backslash (`\\n` is a
 * backslash and `n`).
 */
const JSON_SPACE = /(?<!\\)\\[nrt](?=[A-Za-z0-9_-])/g;
/** Typographic hyphens written for `-`. */
const HYPHENS = /[\u2010\u2011]/g;
/** A C-style hex escape (`\x2d`). */
const HEX_ESCAPE = /\\x([0-9A-Fa-f]{2})/g;

/** The character of `code` when it is visible ASCII other than `"`, `%`, `&`, `\`; otherwise undefined. */
function visible(code: number): string | undefined {
  return code > 0x20 && code < 0x7f && code !== 0x22 && code !== 0x25 && code !== 0x26 && code !== 0x5c
    ? String.fromCharCode(code)
    : undefined;
}

/**
 * `text` with its percent-escapes, HTML character references and `\xHH` escapes of visible
 * ASCII characters, JSON's white-space escapes and typographic hyphens (see the module's comment)
 * written as those characters, or `text` itself when it holds none. Cost: one `includes` scan
 * per kind for a text without them.
 */
export function decodeOtherEscapes(text: string): string {
  let out = text;
  if (out.includes('%'))
    out = out.replace(
      PERCENT,
      (written: string, hex: string) => visible(Number.parseInt(hex, 16)) ?? written,
    );
  if (out.includes('&')) {
    out = out.replace(
      HTML_NUMERIC,
      (written: string, decimal: string | undefined, hex: string | undefined) =>
        visible(decimal !== undefined ? Number(decimal) : Number.parseInt(hex as string, 16)) ?? written,
    );
    out = out.replace(HTML_NAMED_RE, (written: string) => HTML_NAMED[written] ?? written);
  }
  if (out.includes('\\x'))
    out = out.replace(
      HEX_ESCAPE,
      (written: string, hex: string) => visible(Number.parseInt(hex, 16)) ?? written,
    );
  // A space, not the character itself: a JSON text redacted before it is parsed stays valid JSON.
  if (out.includes('\\')) out = out.replace(JSON_SPACE, ' ');
  HYPHENS.lastIndex = 0;
  if (HYPHENS.test(out)) out = out.replace(HYPHENS, '-');
  return out;
}
