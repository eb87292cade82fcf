import { foldCase } from './fold-case.js';
import { REDACTED_TEXT, redactKeyShapes } from './key-shapes.js';
import { redactPieces } from './redact-pieces.js';

export { REDACTED_TEXT };

/** Shorter strings are never treated as secrets: they would mangle ordinary words. */
const MIN_SECRET_LENGTH = 6;
/** Shorter base64 fragments of a secret are not redacted alone: they could match ordinary base64. */
const MIN_BASE64_CORE = 8;
/** How deep the cause chain and nested fields are walked. */
const MAX_DEPTH = 8;

/** Removes every secret of a fixed list from an error, in place; returns the same error. */
export type ErrorRedactor = <E>(error: E) => E;

/**
 * A redactor of `secrets` (literal values: API keys, tokens, AWS credentials; for a value such
 * as `Bearer abc...` the part after the space too; for `Basic <base64>` the decoded `user:key`
 * and the key), each also in its URL-encoded, JSON-escaped (`/` as `\/`), base64 and base64url forms (a provider may echo
 * a key encoded: see base64Forms). It rewrites, in place, an error's `message`
 * and `stack`, every own string field (provider codes and types, bodies kept as text), plain
 * objects and arrays under it, and the same down its `cause` chain and `AggregateError.errors`,
 * so that no secret appears in the message, stack, `String()`, JSON or any cause. Strings that
 * hold no secret are left as they are. Text other than a name field also loses anything
 * shaped like a credential, configured or not ({@link redactKeyShapes}: a gateway quoting its
 * upstream key, a server echoing a token). `names` (provider names and other names of the
 * config) stay readable in messages even when one is the start of a secret (see
 * {@link redactText}), and `names` and `ids` (ids the config names: voices, models, endpoints)
 * even when one looks random.
 */
export function createErrorRedactor(
  secrets: readonly string[],
  names: Iterable<string> = [],
  ids: Iterable<string> = [],
): ErrorRedactor {
  const list = secretForms(secrets);
  const kept = new Set(names);
  // Longest first, so that an id holding another is kept whole.
  const keep = [...new Set([...kept, ...ids])].filter((n) => n !== '').sort((a, b) => b.length - a.length);
  // A name field is never a cut text: a provider's name that starts like a secret stays readable.
  // Other text also loses whatever is shaped like a credential (a key the config does not hold).
  const text = (value: string, key: string) =>
    NAME_FIELDS.has(key)
      ? redactWhole(value, list)
      : redactKeyShapes(list.length === 0 ? value : redactText(value, list, kept), keep);
  return <E>(error: E): E => {
    scrub(error, text, new Set(), 0);
    return error;
  };
}

/** A start of a secret this long or longer, echoed cut or masked by a server, is redacted too. */
export const MIN_SECRET_PREFIX = 8;

/**
 * `text` with every one of `secrets` (longest first) replaced by `[redacted]`, and also every
 * start of a secret that a server echoed cut or masked, wherever it stands in the text:
 * - a start of {@link MIN_SECRET_PREFIX} characters or more that is followed by a character
 *   that is not a key character (letters, digits, `_`, `-`): a mask run (`***`, `xxx`, `•`),
 *   a cut marker (`...`, `…`), a quote, white space, punctuation or the end of the text
 *   (`Invalid API key sk-SECRETKEY-1234567... (check)`, `"sk-SECRETKEY-1234567" is not valid`).
 *   A mask run after it (`*`, `•`, 3+ `x`) is redacted with it; a cut marker is kept;
 * - a masked key `<start><mask><end>` (`sk-abcd****wxyz`, `sk-abcd...wxyz`, `sk-abcd…wxyz`): a
 *   start of 4+ characters, a mask run of 3+ characters or a cut marker, and an end of the
 *   secret, that together show {@link MIN_SECRET_PREFIX}+ characters of the secret: the whole
 *   token is redacted;
 * - a piece of a secret's middle or end of 8+ characters standing as a word of its own, or of
 *   16+ characters anywhere (a server that strips a vendor prefix before echoing a key; see
 *   redactPieces).
 * A start of fewer than 16 characters followed by more key characters is another word
 * (`acme-voice-gw-east` beside a key `acme-voice-gw-7f3...`) and stays, and so does a start that is exactly one of `names`
 * (provider names and other names of the config, shown in our own messages). Shorter starts
 * (`sk-proj`) say nothing about a key and stay. For text that a server may have cut or masked:
 * a whole text of ours (a name, a config path segment) goes through {@link redactWhole}.
 * Every rule matches in any letter case (a server that lower-cases a mixed-case key it echoes
 * must not get it past redaction; see foldCase).
 * Cost: one `indexOf` scan per secret for its first 4 characters, then a compare at each hit.
 */
export function redactText(
  text: string,
  secrets: readonly string[],
  names: ReadonlySet<string> = NO_NAMES,
): string {
  text = redactWhole(text, secrets);
  for (const secret of secrets) text = redactStarts(text, secret, names);
  for (const secret of secrets) text = redactPieces(text, secret, REDACTED_TEXT, names);
  return text;
}

const NO_NAMES: ReadonlySet<string> = new Set();

/** Characters a masked key's start must show at least (`sk-a` of `sk-a****wxyz`). */
const MIN_MASKED_START = 4;
/** A key character: a start followed by one of these goes on as another word. */
const KEY_CHAR = /[A-Za-z0-9_-]/;
/** A character of a key's shown end: key characters and the symbols of base64 and tokens (`+/=.~`). */
const END_CHAR = /[A-Za-z0-9_\-+/=.~]/;
/** A mask run a server writes in place of a key's middle or end. */
const MASK_RUN = /[*\u2022]+[*\u2022xX]*|[xX]{3,}[*\u2022xX]*/y;

/** `text` with every start of `secret` that a server echoed cut or masked redacted (see {@link redactText}). */
function redactStarts(text: string, secret: string, names: ReadonlySet<string>): string {
  if (secret.length <= MIN_SECRET_PREFIX) return text;
  // Matched in any letter case (see foldCase): `folded` has the same indices as `text`.
  const folded = foldCase(text);
  const key = foldCase(secret);
  const head = key.slice(0, MIN_MASKED_START);
  let out = '';
  let from = 0;
  let at = folded.indexOf(head);
  while (at !== -1) {
    let n = head.length;
    while (n < key.length && folded[at + n] === key[n]) n++;
    const end = startEnd(text, folded, at, n, key, names);
    if (end === -1) {
      at = folded.indexOf(head, at + 1);
      continue;
    }
    out += `${text.slice(from, at)}${REDACTED_TEXT}`;
    from = end;
    at = folded.indexOf(head, end);
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * Where the echoed start of `secret` (case-folded) at `at`, matching `folded` (`text` case-folded)
 * for `n` characters, ends (with its mask run and a shown end of the secret), or -1 when it is
 * no echo of the secret.
 */
function startEnd(
  text: string,
  folded: string,
  at: number,
  n: number,
  secret: string,
  names: ReadonlySet<string>,
): number {
  const after = at + n;
  MASK_RUN.lastIndex = after;
  const mask = MASK_RUN.exec(text)?.[0].length ?? 0;
  // A cut marker standing for the key's middle (`sk-abcd...wxyz`) masks it like a mask run.
  const cut = mask > 0 ? 0 : text.startsWith('...', after) ? 3 : text[after] === '\u2026' ? 1 : 0;
  const gap = mask + cut;
  let tail = after + gap;
  while (tail < text.length && END_CHAR.test(text[tail]!)) tail++;
  // The shown end is the longest run there that ends the secret (`789=` of a base64 key, not the
  // sentence's full stop after it).
  while (tail > after + gap && !secret.endsWith(folded.slice(after + gap, tail))) tail--;
  const shownEnd = gap > 0 && tail > after + gap;
  if (n >= MIN_SECRET_PREFIX) {
    if (mask > 0) return shownEnd ? tail : after + mask;
    if (cut > 0 && shownEnd) return tail;
    if (after < text.length && KEY_CHAR.test(text[after]!)) return -1;
    return names.has(text.slice(at, after)) ? -1 : after;
  }
  // A masked key: a short start, a mask, an end of the secret, standing as a token of its own.
  if (!shownEnd || (mask < 3 && cut === 0) || n + (tail - after - gap) < MIN_SECRET_PREFIX) return -1;
  return at > 0 && KEY_CHAR.test(text[at - 1]!) ? -1 : tail;
}

/**
 * `text` with every one of `secrets` (longest first) replaced by `[redacted]`: whole secrets
 * only, in any letter case (a server may echo a mixed-case key lower-cased; see foldCase).
 */
export function redactWhole(text: string, secrets: readonly string[]): string {
  let folded = foldCase(text);
  for (const secret of secrets) {
    const key = foldCase(secret);
    let at = folded.indexOf(key);
    if (at === -1) continue;
    let out = '';
    let from = 0;
    while (at !== -1) {
      out += `${text.slice(from, at)}${REDACTED_TEXT}`;
      from = at + key.length;
      at = folded.indexOf(key, from);
    }
    text = out + text.slice(from);
    folded = foldCase(text);
  }
  return text;
}

/**
 * Names of HTTP headers and URL query parameters whose values are credentials: names holding
 * auth, key, token, secret, cookie, signature, password, passwd or credential (`Authorization`,
 * `Cookie`, `X-Api-Key`, `xi-api-key`, `X-Auth-Token`, `api-key`, `access_token`, a request
 * signature...), and the query parameters `sig`, `code` (Azure Functions keys), `pwd` and `pass`.
 * Other names (`User-Agent`, `Accept`, `X-Request-Id`, `api-version`, `model`) are not secrets.
 */
export const SECRET_NAME =
  /auth|key|token|secret|cookie|signature|password|passwd|credential|^(?:sig|code|pwd|pass)$/i;

/**
 * Every form in which `secrets` may be echoed back, longest first, for {@link redactText}: each
 * secret trimmed; for `Bearer <token>` / `Token <token>` / `Basic <token>` the token too, and for
 * `Basic <base64>` the decoded `user:key` and the key; each of those also URL-encoded,
 * JSON-escaped (`/` as `\/`), and in its base64 and base64url forms (see base64Forms). Values
 * shorter than 6 characters are left out (they would mangle ordinary words). The one list of the
 * router's redactor and the transport's (`redactSecrets`).
 */
export function secretForms(secrets: readonly string[]): string[] {
  const found = new Set<string>();
  const add = (value: string) => {
    if (value.length < MIN_SECRET_LENGTH) return;
    found.add(value);
    const encoded = encodeURIComponent(value);
    if (encoded !== value) found.add(encoded);
    // JSON text may escape `/` as `\/` (a body echoing a base64 or AWS secret key).
    if (value.includes('/')) found.add(value.replaceAll('/', '\\/'));
    for (const form of base64Forms(value)) found.add(form);
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
 * The base64 and base64url forms of `secret` that appear in any text holding it base64-encoded
 * (alone, as `user:key` in a `Basic` header, or inside a longer value): the whole encoding, and
 * for each of the three byte alignments the characters that depend on the secret's bytes only.
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms = [bytes.toString('base64'), bytes.toString('base64url')];
  for (let offset = 0; offset < 3; offset++) {
    const shifted = Buffer.concat([Buffer.alloc(offset), bytes]);
    const whole = Math.floor(shifted.byteLength / 3) * 4; // characters of complete 3-byte groups
    const core = shifted.toString('base64').slice(Math.ceil((offset * 4) / 3), whole);
    if (core.length >= MIN_BASE64_CORE)
      forms.push(core, shifted.toString('base64url').slice(Math.ceil((offset * 4) / 3), whole));
  }
  return [...new Set(forms)];
}

/** Fields of our errors that hold a name (whole, never cut): only whole secrets are redacted there. */
const NAME_FIELDS = new Set(['provider', 'model', 'route', 'capability', 'voice', 'phase', 'code', 'name']);

function scrub(
  value: unknown,
  text: (s: string, key: string) => string,
  seen: Set<object>,
  depth: number,
): void {
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH || seen.has(value)) return;
  seen.add(value);
  if (ArrayBuffer.isView(value)) return;
  const target = value as Record<string | symbol, unknown>;
  const keys: string[] = Object.keys(target);
  if (value instanceof Error)
    for (const k of ['message', 'stack', 'cause', 'errors']) if (!keys.includes(k)) keys.push(k);
  for (const key of keys) {
    let field: unknown;
    try {
      field = target[key];
    } catch {
      continue;
    }
    if (typeof field === 'string') {
      const clean = text(field, key);
      if (clean !== field) set(target, key, clean);
    } else if (typeof field === 'object' && field !== null) {
      if (Array.isArray(field) || isPlain(field) || field instanceof Error)
        scrub(field, text, seen, depth + 1);
    }
  }
}

function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Sets a field even when it is a read-only own data property of our own classes; frozen objects are skipped. */
function set(target: Record<string, unknown>, key: string, value: string): void {
  try {
    const own = Object.getOwnPropertyDescriptor(target, key);
    if (own && !own.writable && own.configurable) Object.defineProperty(target, key, { ...own, value });
    else target[key] = value;
  } catch {
    // frozen or a getter: nothing to do
  }
}
