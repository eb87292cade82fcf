import { redactByteLists } from './byte-lists.js';
import { foldCase } from './fold-case.js';
import { REDACTED_TEXT, redactKeyShapes } from './key-shapes.js';
import { leadingWord, withinLeadingWord, wordSpans } from './leading-word.js';
import { type PieceIndex, pieceIndex, redactPieces } from './redact-pieces.js';
import { secretForms } from './secret-forms.js';
import { redactSpacedRuns } from './spaced-echo.js';
import { redactDecoded } from './unicode-escapes.js';

export { REDACTED_TEXT, secretForms };

/** How deep the cause chain and nested fields are walked. */
const MAX_DEPTH = 8;

/** Removes every secret of a fixed list from an error, in place; returns the same error. */
export type ErrorRedactor = <E>(error: E) => E;

/**
 * A redactor of `secrets` (literal values: API keys, tokens, AWS credentials; for a value such
 * as `Bearer abc...` the part after the space too; for `Basic <base64>` the decoded `user:key`
 * and the key), each also in every encoding a provider may echo it in (URL-encoded, every byte
 * percent-encoded, JSON-escaped (also any character as `\uXXXX`, decoded before matching: see
 * redactDecoded), base64, HTML character references, a byte array, UTF-16, hex:
 * see secretForms), computed once here, not per error. It rewrites, in place, an error's `message`
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
  // Matched on the text with its `\uXXXX` escapes decoded (a key echoed JSON-escaped character
  // by character): see redactDecoded.
  const text = (value: string, key: string) =>
    NAME_FIELDS.has(key)
      ? redactDecoded(value, (v) => redactPrepared(v, prepare(list)))
      : redactDecoded(value, (v) =>
          redactKeyShapes(list.length === 0 ? v : redactEncoded(v, list, kept), keep),
        );
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
 * - a start of 4 to 7 characters masked to its end (`sk-abc***`): a mask run of 3+ characters
 *   with no key character after it, the start standing as a token of its own;
 * - a piece of a secret's middle or end of 8+ characters standing as a word of its own, or of
 *   16+ characters anywhere (a server that strips a vendor prefix before echoing a key; see
 *   redactPieces);
 * - any of the above spelled out with one separator between its characters (`s k - t e s t`,
 *   `s.k.-.t.e.s.t`; spaces, no-break spaces, `.`, `,`, `:`, `|`, `/`, `_`, `-`...), matched on the
 *   run's characters put together when it spells {@link MIN_SECRET_PREFIX}+ characters (see
 *   redactSpacedRuns); text outside such a run, and a run that spells no secret, stay.
 * Text that shows only a secret's leading word (its first segment when that is letters in one
 * case: `internal` of `internal-gw-7f3a...`, `voxroute` of `voxroute-mock-key`; see leadingWord)
 * and is under 16 characters is an ordinary word and stays (`internal error`,
 * `node_modules/voxroute/`), unless a mask or cut marker and 4+ characters of the secret's end
 * follow it (`internal****2e4b`); a start that runs past the word (`internal-gw`, `sk-proj-`) is
 * redacted. A start of fewer than 16 characters followed by more key characters is another word
 * (`acme-voice-gw-east` beside a key `acme-voice-gw-7f3...`) and stays, and so does a start that is exactly one of `names`
 * (provider names and other names of the config, shown in our own messages). Shorter starts
 * (`sk-proj`) say nothing about a key and stay. For text that a server may have cut or masked:
 * a whole text of ours (a name, a config path segment) goes through {@link redactWhole}.
 * Every rule matches on the text as written and again with its `\uXXXX`, percent, HTML and
 * `\xHH` escapes of visible characters decoded (a key echoed JSON-escaped character by character,
 * or with only its `-` escaped; the text is returned decoded only when that found something: see
 * redactDecoded), and in any letter case (a server that lower-cases a mixed-case key it echoes
 * must not get it past redaction; see foldCase).
 * Cost: one `indexOf` scan per form for the whole form and one for its first 4 characters,
 * then a compare at each hit, and one pass for the pieces whatever the number of forms. What
 * `secrets` needs for matching (case-folded forms, the pieces' index) is computed on first use
 * and kept with a frozen list, as secretForms returns, so a router's lists are prepared once.
 */
export function redactText(
  text: string,
  secrets: readonly string[],
  names: ReadonlySet<string> = NO_NAMES,
): string {
  return redactDecoded(text, (decoded) => redactEncoded(decoded, secrets, names));
}

/**
 * {@link redactText} on the text as it is (its `\uXXXX` escapes not decoded), and on each run of
 * it that spells something out with one separator between its characters (`s k - t e s t`: see
 * redactSpacedRuns), put together.
 */
function redactEncoded(text: string, secrets: readonly string[], names: ReadonlySet<string>): string {
  const out = redactForms(text, secrets, names);
  return redactSpacedRuns(out, (run) => redactForms(run, secrets, names), MIN_SECRET_PREFIX);
}

/** {@link redactEncoded} without the spelled-out runs. */
function redactForms(text: string, secrets: readonly string[], names: ReadonlySet<string>): string {
  const forms = prepare(secrets);
  text = redactPrepared(text, forms);
  // The echoed starts of every form are found on the same text and redacted together, so that
  // where two forms match one echo (a key with `/` and its URL-encoded form, whose start matches
  // only up to the `/`), the longer match wins: redacting the shorter first would leave the
  // rest of the echo (`/K7MDEN`) in the text, out of reach of the longer form.
  let folded = foldCase(text);
  const spans: Array<[number, number]> = [];
  for (const [i, key] of forms.folded.entries()) startSpans(text, folded, key, forms.words[i]!, names, spans);
  if (spans.length > 0) {
    text = redactSpans(text, spans);
    folded = foldCase(text);
  }
  forms.pieces ??= pieceIndex(forms.folded, secrets.map(wordSpans));
  return redactPieces(text, folded, forms.pieces, REDACTED_TEXT, names);
}

/** `text` with the union of `spans` (`[start, end)` pairs, any order, may overlap) each replaced by `[redacted]`. */
function redactSpans(text: string, spans: Array<[number, number]>): string {
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let out = '';
  let from = 0;
  let i = 0;
  while (i < spans.length) {
    const start = spans[i]![0];
    let end = spans[i]![1];
    for (i++; i < spans.length && spans[i]![0] <= end; i++) end = Math.max(end, spans[i]![1]);
    out += `${text.slice(from, start)}${REDACTED_TEXT}`;
    from = end;
  }
  return out + text.slice(from);
}

/** A list of forms (from secretForms) prepared for matching, once per list. */
interface PreparedForms {
  /** Every form, case-folded (see foldCase), in the list's order. */
  readonly folded: readonly string[];
  /** The length of each form's leading word (see leadingWord), read before case-folding. */
  readonly words: readonly number[];
  /** Their pieces for redactPieces, built on first use. */
  pieces?: PieceIndex;
}

/**
 * Prepared lists, by list: secretForms gives the same frozen array for the same secrets, so a
 * router's redactor and the transport's prepare each list once. Only frozen lists are kept (a
 * caller's own array may change).
 */
const prepared = new WeakMap<readonly string[], PreparedForms>();

function prepare(secrets: readonly string[]): PreparedForms {
  let forms = prepared.get(secrets);
  if (forms === undefined) {
    forms = { folded: secrets.map(foldCase), words: secrets.map(leadingWord) };
    if (Object.isFrozen(secrets)) prepared.set(secrets, forms);
  }
  return forms;
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

/**
 * Adds to `spans` where each start of a secret (`key`, case-folded; its leading word `word`
 * characters long, see leadingWord) that a server echoed cut or masked stands in `text`
 * (`[start, end)`, to be redacted: see {@link redactText}). Matched in any letter case: `folded`
 * is `text` case-folded (see foldCase), with the same indices.
 */
function startSpans(
  text: string,
  folded: string,
  key: string,
  word: number,
  names: ReadonlySet<string>,
  spans: Array<[number, number]>,
): void {
  if (key.length <= MIN_SECRET_PREFIX) return;
  const head = key.slice(0, MIN_MASKED_START);
  let at = folded.indexOf(head);
  while (at !== -1) {
    let n = head.length;
    while (n < key.length && folded[at + n] === key[n]) n++;
    const end = startEnd(text, folded, at, n, key, word, names);
    if (end === -1) {
      at = folded.indexOf(head, at + 1);
      continue;
    }
    spans.push([at, end]);
    at = folded.indexOf(head, end);
  }
}

/**
 * Where the echoed start of `secret` (case-folded; its leading word `word` characters long) at
 * `at`, matching `folded` (`text` case-folded) for `n` characters, ends (with its mask run and a
 * shown end of the secret), or -1 when it is no echo of the secret.
 */
function startEnd(
  text: string,
  folded: string,
  at: number,
  n: number,
  secret: string,
  word: number,
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
  const endShown = tail - after - gap;
  const shownEnd = gap > 0 && endShown > 0;
  // Only the secret's leading word (`internal` of `internal-gw-7f3a...`): an ordinary word,
  // unless a mask or cut marker and 4+ characters of the secret's end follow it.
  if (withinLeadingWord(0, n, word)) {
    const masked = shownEnd && (mask >= 3 || cut > 0) && endShown >= MIN_MASKED_START;
    return masked && n + endShown >= MIN_SECRET_PREFIX ? tail : -1;
  }
  if (n >= MIN_SECRET_PREFIX) {
    if (mask > 0) return shownEnd ? tail : after + mask;
    if (cut > 0 && shownEnd) return tail;
    if (after < text.length && KEY_CHAR.test(text[after]!)) return -1;
    return names.has(text.slice(at, after)) ? -1 : after;
  }
  // A short start (4+ characters: the search's head) standing as a token of its own
  // (`sk-abc` of `sk-abc***`, `sk-abc...xyz`).
  if (at > 0 && KEY_CHAR.test(text[at - 1]!)) return -1;
  // A masked key: a mask (3+ characters) or cut marker, then an end of the secret.
  if (shownEnd && (mask >= 3 || cut > 0) && n + endShown >= MIN_SECRET_PREFIX) return tail;
  // A start masked to its end (`sk-abc***`): a mask run of 3+ characters that ends the token.
  const masked = after + mask;
  if (mask >= 3 && !(masked < text.length && KEY_CHAR.test(text[masked]!))) return masked;
  return -1;
}

/**
 * `text` with every one of `secrets` (longest first) replaced by `[redacted]`: whole secrets
 * only, in any letter case (a server may echo a mixed-case key lower-cased; see foldCase), and
 * a byte list spelling one in any spacing (`[ 99, 111, ... ]`; see redactByteLists); also on the
 * text with its `\uXXXX` escapes decoded (see redactDecoded).
 */
export function redactWhole(text: string, secrets: readonly string[]): string {
  const forms = prepare(secrets);
  return redactDecoded(text, (decoded) => redactPrepared(decoded, forms));
}

function redactPrepared(text: string, forms: PreparedForms): string {
  let folded = foldCase(text);
  for (const key of forms.folded) {
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
  return redactByteLists(text, forms.folded, REDACTED_TEXT);
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
