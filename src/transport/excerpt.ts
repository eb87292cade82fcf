import { cutBetweenTokens } from '../errors/cut-text.js';

/**
 * `text` cut to at most `max` characters, ending in `…` when cut. Callers redact secrets first:
 * a secret the cut splits could no longer be found whole (`redactText` also redacts a secret's
 * start left at the cut, as a second guard).
 */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The longest provider message an error carries, in characters (a longer one is {@link clip}ped). */
export const MAX_MESSAGE_CHARS = 500;

/**
 * A provider's own message (from an error body, an in-band error event or frame), trimmed and
 * cut to {@link MAX_MESSAGE_CHARS} (a provider may send megabytes of text there), never inside
 * a token: the cut may come before redaction (see cutBetweenTokens).
 */
export function clipMessage(text: string): string {
  return cutBetweenTokens(text.trim(), MAX_MESSAGE_CHARS);
}

/** `text` with white space collapsed and trimmed, then {@link clip}ped to `max` characters. */
export function excerpt(text: string, max: number): string {
  return clip(text.replace(/\s+/g, ' ').trim(), max);
}
