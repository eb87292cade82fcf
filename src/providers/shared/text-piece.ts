import type { AbortSource } from '../../internal/abort-link.js';
import type { TtsTextPiece } from '../types.js';

/** Streamed TTS text as adapters take it: plain strings, or the router's pieces with clause ends marked. */
export type StreamedText = AsyncIterable<string | TtsTextPiece>;

/**
 * An item of streamed text as a {@link TtsTextPiece}: a piece as it is (when well formed), a
 * string as a piece whose clause end is `ownClauseEnd(text)` (the adapter's own rule);
 * undefined for anything else (not text: skipped).
 */
export function textPiece(item: unknown, ownClauseEnd: (text: string) => boolean): TtsTextPiece | undefined {
  if (typeof item === 'string') return { text: item, clauseEnd: ownClauseEnd(item) };
  if (typeof item !== 'object' || item === null) return undefined;
  const { text, clauseEnd } = item as Partial<TtsTextPiece>;
  if (typeof text !== 'string') return undefined;
  return { text, clauseEnd: clauseEnd === true };
}

/** The text of streamed text joined (for endpoints that take it whole); stops with `signal`'s reason. */
export async function joinStreamedText(source: StreamedText, signal?: AbortSource): Promise<string> {
  let text = '';
  for await (const item of source) {
    if (signal?.aborted) throw signal.reason;
    text += textPiece(item, () => false)?.text ?? '';
  }
  return text;
}
