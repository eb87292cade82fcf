import { foldCase } from './fold-case.js';

/** Shorter lists are not read: no secret is shorter than 6 characters. */
const MIN_LIST = 6;

/**
 * `text` with every run of a byte list whose bytes spell one of `folded` (secrets' forms,
 * case-folded: see foldCase) replaced by `replacement`. A byte list is 6 or more numbers as a
 * server may write bytes: decimal (`99`, at most 255) or `0x` hex (`0x63`), separated by commas
 * with any white space around them (`[99,111,...]`, a Node Buffer's JSON `data`, `[ 99, 111 ]`,
 * one number a line in pretty-printed JSON) or by white space alone (Go's `fmt` of a `[]byte`,
 * `[99 111 ...]`; `0x63 0x6f ...`), one separator kind per list, not part of a longer word or
 * of a decimal fraction (`1.5, 2`); a full stop after it may end a sentence. The bytes are read one character each
 * (Latin-1, as an HTTP header carries them) and compared in any letter case. The numbers around
 * the secret's bytes stay: `[1, 2, [redacted], 3]`.
 * Cost: one pass over `text` (no regular expression: a long list of numbers in an error body
 * costs no backtracking); a list found is decoded once and searched for each form.
 */
export function redactByteLists(text: string, folded: readonly string[], replacement: string): string {
  if (folded.length === 0) return text;
  let out = '';
  let from = 0;
  let i = 0;
  while (i < text.length) {
    const list = startsToken(text, i) ? readList(text, i) : undefined;
    if (list === undefined) {
      i++;
      continue;
    }
    const end = list.ends[list.ends.length - 1] as number;
    const secret = secretBytes(list.bytes, folded);
    if (secret !== undefined) {
      for (let k = 0; k < list.bytes.length; k++) {
        if (secret[k] !== 1 || (k > 0 && secret[k - 1] === 1)) continue;
        let last = k;
        while (last + 1 < list.bytes.length && secret[last + 1] === 1) last++;
        out += `${text.slice(from, list.starts[k])}${replacement}`;
        from = list.ends[last] as number;
      }
    }
    i = end;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** A byte list found in a text: each number's value and where it starts and ends. */
interface ByteList {
  bytes: number[];
  starts: number[];
  ends: number[];
}

/** The list of 6+ numbers starting at `at` (a token's start), or undefined when it is shorter. */
function readList(text: string, at: number): ByteList | undefined {
  const list: ByteList = { bytes: [], starts: [], ends: [] };
  let commas: boolean | undefined;
  let i = at;
  for (;;) {
    const end = readToken(text, i);
    if (end === -1) break;
    list.bytes.push(tokenValue);
    list.starts.push(i);
    list.ends.push(end);
    let j = skipSpace(text, end);
    // The first gap sets the list's separator: a comma (white space around it or not), or white space alone.
    const comma = text.charCodeAt(j) === 0x2c; // ','
    commas ??= comma;
    if (comma !== commas || (!comma && j === end)) break;
    if (comma) j = skipSpace(text, j + 1);
    i = j;
  }
  // A fraction's digits after the last number (`..., 3.5`): that number is no byte.
  const last = list.ends[list.ends.length - 1];
  if (last !== undefined && text.charCodeAt(last) === 0x2e && isDigit(text.charCodeAt(last + 1))) {
    list.bytes.pop();
    list.starts.pop();
    list.ends.pop();
  }
  return list.bytes.length >= MIN_LIST ? list : undefined;
}

/** Whether a number may start at `i`: not inside a word, nor after `<digit>.` (a fraction). */
function startsToken(text: string, i: number): boolean {
  if (!isDigit(text.charCodeAt(i))) return false;
  if (i === 0) return true;
  const before = text.charCodeAt(i - 1);
  if (isWord(before)) return false;
  return !(before === 0x2e && i >= 2 && isDigit(text.charCodeAt(i - 2)));
}

/** The value of the number {@link readToken} read last. */
let tokenValue = 0;

/**
 * Where the number at `i` ends, its value in {@link tokenValue}, or -1 when there is none: 1 to
 * 3 decimal digits (<= 255) or `0x` and 1 or 2 hex digits, ending a word.
 */
function readToken(text: string, i: number): number {
  let value = 0;
  let end = i;
  if (text.charCodeAt(i) === 0x30 && (text.charCodeAt(i + 1) | 0x20) === 0x78) {
    // 0x / 0X
    end = i + 2;
    for (let h = hexValue(text.charCodeAt(end)); end - i < 4 && h >= 0; h = hexValue(text.charCodeAt(end))) {
      value = value * 16 + h;
      end++;
    }
    if (end === i + 2) return -1;
  } else {
    while (end - i < 3 && isDigit(text.charCodeAt(end))) value = value * 10 + text.charCodeAt(end++) - 0x30;
    if (end === i || value > 0xff) return -1;
  }
  if (isWord(text.charCodeAt(end))) return -1;
  tokenValue = value;
  return end;
}

/** Which bytes of `bytes` belong to an occurrence of one of `folded`, or undefined when none does. */
function secretBytes(bytes: readonly number[], folded: readonly string[]): Uint8Array | undefined {
  const decoded = foldCase(Buffer.from(bytes).toString('latin1'));
  let secret: Uint8Array | undefined;
  for (const form of folded) {
    for (let at = decoded.indexOf(form); at !== -1; at = decoded.indexOf(form, at + 1)) {
      secret ??= new Uint8Array(bytes.length);
      secret.fill(1, at, at + form.length);
    }
  }
  return secret;
}

/** The index of the first character at or after `i` that is no white space. */
function skipSpace(text: string, i: number): number {
  let j = i;
  for (
    let c = text.charCodeAt(j);
    c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c > 0x7f && /\s/.test(text[j] as string));
    c = text.charCodeAt(j)
  )
    j++;
  return j;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** `[A-Za-z0-9_]`, a regular expression's `\w`. */
function isWord(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f;
}

/** The value of a hex digit, or -1. */
function hexValue(c: number): number {
  if (isDigit(c)) return c - 0x30;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}
