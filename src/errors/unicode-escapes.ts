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
 * `redact(text)` run on `text` with its `\uXXXX` escapes decoded ({@link decodeUnicodeEscapes}):
 * when that removed something, the decoded text with it removed; otherwise `text` as it was
 * (a text without secrets keeps its escapes).
 */
export function redactDecoded(text: string, redact: (text: string) => string): string {
  const decoded = decodeUnicodeEscapes(text);
  const out = redact(decoded);
  return out === decoded ? text : out;
}
