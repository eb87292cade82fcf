/**
 * `text` cut to at most `max` characters, ending in `…` when cut. Callers redact secrets first:
 * a secret the cut splits could no longer be found whole (`redactText` also redacts a secret's
 * start left at the cut, as a second guard).
 */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** `text` with white space collapsed and trimmed, then {@link clip}ped to `max` characters. */
export function excerpt(text: string, max: number): string {
  return clip(text.replace(/\s+/g, ' ').trim(), max);
}
