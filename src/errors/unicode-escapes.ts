import { cutBetweenTokens } from './cut-text.js';
import { decodeOtherEscapes } from './other-escapes.js';

/** A JSON `\uXXXX` escape, in either letter case of its hex digits. */
const ESCAPE = /\\u([0-9a-fA-F]{4})/g;

/**
 * `text` with every JSON `\uXXXX` escape of a visible ASCII character (`!` to `~`, but `"` and
 * `\`, so that no quote or escape is made) written as that character, or `text` itself when it
 * holds no `\u`. A server that escapes every character of a key it echoes (`\u0073\u006b...`, an
 * encoder that writes ASCII escapes, a gateway that encodes its upstream's JSON error twice),
 * or only some of them, shows the key to anyone who runs `JSON.parse` on the text: the redactor
 * matches secrets on this decoded text. Cost: one `includes` scan for a text without escapes.
 */
export function decodeUnicodeEscapes(text: string): string {
  if (!text.includes('\\u')) return text;
  return text.replace(ESCAPE, (written: string, hex: string) => {
    const code = Number.parseInt(hex, 16);
    return code > 0x20 && code < 0x7f && code !== 0x22 && code !== 0x5c ? String.fromCharCode(code) : written;
  });
}

/**
 * The longest text the redactor reads, in characters: a longer one (a provider's error of
 * megabytes) is cut to this length, ending in `…`, before it is read. No error needs more, and
 * reading more took seconds and, past about 10 million characters, overflowed the stack of the
 * regular expressions. The cut never splits a token (see cutBetweenTokens): no start of a key
 * is left at it.
 */
export const MAX_REDACTED_CHARS = 65_536;

/**
 * Characters that show nothing (soft hyphen, zero-width space and joiners, word joiner,
 * invisible operators, direction marks and controls, BOM), written or as a `\uXXXX` escape,
 * and HTML's line-break hints that render as nothing (`&shy;`, `&#173;`, `&#8203;`, their hex
 * forms, `<wbr>`).
 */
const INVISIBLE =
  /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|\\u(?:00[aA][dD]|180[eE]|200[b-fB-F]|202[a-eA-E]|206[0-46-9]|[fF][eE][fF][fF])|&(?:shy|#173|#8203|#[xX](?:00)?[aA][dD]|#[xX]200[bB]);|<wbr\s*\/?>/g;

/**
 * `text` without the characters that show nothing ({@link INVISIBLE}), or `text` itself when it
 * holds none. A key echoed with them between its characters (an HTML page that lets a long
 * token wrap with soft hyphens, zero-width spaces or `<wbr>`, a server that marks what it
 * quotes) reads as the key, and copying it gives the key: the redactor matches secrets on this
 * text.
 */
export function withoutInvisible(text: string): string {
  INVISIBLE.lastIndex = 0;
  return INVISIBLE.test(text) ? text.replace(INVISIBLE, '') : text;
}

/**
 * `redact(text)`, then `redact` run again on that with its `\uXXXX` escapes decoded
 * ({@link decodeUnicodeEscapes}), its percent-escapes, HTML character references, `\xHH`
 * escapes, JSON white-space escapes and typographic hyphens decoded (decodeOtherEscapes) and its
 * invisible characters removed ({@link withoutInvisible}): when that second pass removed
 * something, its decoded text; otherwise the first pass's text (a text without secrets keeps its
 * escapes and invisible characters). A text longer than {@link MAX_REDACTED_CHARS} is cut to
 * that length first (and then returned cut, redacted).
 */
export function redactDecoded(text: string, redact: (text: string) => string): string {
  const bounded = cutBetweenTokens(text, MAX_REDACTED_CHARS);
  // As written first: what is found there is redacted with its escapes, as the server wrote it.
  const written = redact(bounded);
  const decoded = withoutInvisible(decodeOtherEscapes(decodeUnicodeEscapes(written)));
  if (decoded === written) return written;
  const out = redact(decoded);
  return out === decoded ? written : out;
}
