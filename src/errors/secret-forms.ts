/** Shorter strings are never treated as secrets: they would mangle ordinary words. */
const MIN_SECRET_LENGTH = 6;
/** Shorter base64 fragments of a secret are not redacted alone: they could match ordinary base64. */
const MIN_BASE64_CORE = 8;
/** How many lists of secrets {@link secretForms} keeps computed (a router has one or a few). */
const MEMO_SIZE = 32;

const memo = new Map<string, readonly string[]>();

/**
 * Every form in which `secrets` may be echoed back, longest first, for `redactText`: each
 * secret trimmed; for `Bearer <token>` / `Token <token>` / `Basic <token>` the token too, and for
 * `Basic <base64>` the decoded `user:key` and the key; each of those also in the encodings a
 * server may echo it in (see {@link encodedForms}): URL-encoded, JSON-escaped, base64 and
 * base64url, every byte percent-encoded, HTML character references, a byte array, UTF-16 text,
 * hex. Values shorter than 6 characters are left out (they would mangle ordinary words). The one
 * list of the router's redactor and the transport's (`redactSecrets`).
 *
 * Computed once per list of secrets: the result (a frozen array, the same one for equal
 * lists) is kept for the last {@link MEMO_SIZE} lists, so a router's redactor and the transport,
 * which asks again for each error it builds, share it; so do the forms' prepared matchers
 * (see `redactText`), keyed by the array.
 */
export function secretForms(secrets: readonly string[]): readonly string[] {
  const key = JSON.stringify(secrets);
  const known = memo.get(key);
  if (known !== undefined) {
    // Most recently used last: the oldest list is the one dropped.
    memo.delete(key);
    memo.set(key, known);
    return known;
  }
  const forms = Object.freeze(computeForms(secrets));
  if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value as string);
  memo.set(key, forms);
  return forms;
}

function computeForms(secrets: readonly string[]): string[] {
  const found = new Set<string>();
  const add = (value: string) => {
    if (value.length < MIN_SECRET_LENGTH) return;
    found.add(value);
    for (const form of encodedForms(value)) found.add(form);
  };
  for (const secret of secrets) {
    if (typeof secret !== 'string') continue;
    const trimmed = secret.trim();
    add(trimmed);
    // `Bearer <token>`, `Basic <token>`, `Token <token>`: a provider may echo the token alone.
    const space = trimmed.lastIndexOf(' ');
    if (space > 0) add(trimmed.slice(space + 1));
    // `Basic base64(user:password)`: also the decoded pair and the password alone.
    const basic = /^Basic\s+([A-Za-z0-9+/]+={0,2})$/i.exec(trimmed)?.[1];
    const pair = basic === undefined ? undefined : Buffer.from(basic, 'base64').toString('utf8');
    if (pair !== undefined && /^[\x20-\x7e]+:[\x20-\x7e]+$/.test(pair)) {
      add(pair);
      add(pair.slice(pair.indexOf(':') + 1));
    }
  }
  return [...found].sort((a, b) => b.length - a.length);
}

/**
 * The encoded forms of `value` that a server may echo in an error (redaction matches them in
 * any letter case, so one form stands for upper- and lower-case hex):
 * - URL-encoded (`encodeURIComponent`), and every byte percent-encoded (`%63%6F...`);
 * - JSON-escaped: `/` as `\/` (PHP, some Java encoders); characters written as `\uXXXX` are not
 *   enumerated here: the redactor decodes those escapes before matching (`redactDecoded`);
 * - base64 and base64url, whole and inside a longer value (see {@link base64Forms});
 * - HTML character references, decimal (`&#99;&#111;...`) and hex (`&#x63;&#x6F;...`);
 * - a byte array as JSON writes it (`99,111,...`, the `data` of a Node Buffer's JSON); other
 *   spacing (`[ 99, 111 ]`, one byte a line) is found by `redactByteLists`;
 * - UTF-16 text read as bytes: the characters with NULs between them (little- or big-endian),
 *   as they are and JSON-escaped (`\u0000`);
 * - hex, packed (`636f72...`) and byte by byte (`63 6f 72...`, how Node prints a Buffer;
 *   `63:6f:72...`, as fingerprints and hex dumps write bytes).
 */
export function encodedForms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const forms = new Set<string>([encodeURIComponent(value), ...base64Forms(bytes)]);
  if (value.includes('/')) forms.add(value.replaceAll('/', '\\/'));
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0'));
  forms.add(hex.map((h) => `%${h.toUpperCase()}`).join(''));
  forms.add(hex.join(''));
  forms.add(hex.join(' '));
  forms.add(hex.join(':'));
  forms.add(bytes.join(','));
  const chars = [...value];
  forms.add(chars.map((c) => `&#${c.codePointAt(0)};`).join(''));
  forms.add(chars.map((c) => `&#x${(c.codePointAt(0) as number).toString(16).toUpperCase()};`).join(''));
  if (!/[^\x20-\xff]/.test(value)) {
    const units = value.split('');
    forms.add(units.join('\u0000'));
    forms.add(units.join('\\u0000'));
  }
  forms.delete(value);
  return [...forms];
}

/**
 * The base64 and base64url forms of a secret's `bytes` that appear in any text holding it
 * base64-encoded (alone, as `user:key` in a `Basic` header, or inside a longer value): the whole
 * encoding, and for each of the three byte alignments the characters that depend on the
 * secret's bytes only.
 */
function base64Forms(bytes: Buffer): string[] {
  const forms = [bytes.toString('base64'), bytes.toString('base64url')];
  for (let offset = 0; offset < 3; offset++) {
    const shifted = Buffer.concat([Buffer.alloc(offset), bytes]);
    const whole = Math.floor(shifted.byteLength / 3) * 4; // characters of complete 3-byte groups
    const core = shifted.toString('base64').slice(Math.ceil((offset * 4) / 3), whole);
    if (core.length >= MIN_BASE64_CORE)
      forms.push(core, shifted.toString('base64url').slice(Math.ceil((offset * 4) / 3), whole));
  }
  return forms;
}
