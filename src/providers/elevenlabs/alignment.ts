import type { WireAlignment } from './api-types.js';
import type { WordTiming } from './types.js';

/**
 * The words of one alignment object, with times in ms from the start of the whole synthesis:
 * each run of non-whitespace characters is a word, starting at its first character's start
 * time and ending at its last character's start plus duration, all shifted by `offsetMs` (the
 * audio already received before the message: ElevenLabs' times are relative to the message's
 * own audio, ELJS `Alignment` doc). Durations are read from `charDurationsMs`, else
 * `charsDurationsMs` (PROTOCOLS.md 4.3). Returns `[]` when the arrays are missing or their
 * lengths differ (a malformed alignment is ignored, never guessed at). Times are rounded to
 * 0.001 ms.
 */
export function wordsFromAlignment(
  alignment: WireAlignment | null | undefined,
  offsetMs: number,
): WordTiming[] {
  const chars = alignment?.chars;
  const starts = alignment?.charStartTimesMs;
  const durations = alignment?.charDurationsMs ?? alignment?.charsDurationsMs;
  if (!chars || !starts || !durations) return [];
  if (starts.length !== chars.length || durations.length !== chars.length) return [];
  const words: WordTiming[] = [];
  let word = '';
  let startMs = 0;
  let endMs = 0;
  const close = () => {
    if (word !== '') words.push({ word, startMs: round(offsetMs + startMs), endMs: round(offsetMs + endMs) });
    word = '';
  };
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    if (char.trim() === '') {
      close();
      continue;
    }
    if (word === '') startMs = starts[i]!;
    word += char;
    endMs = starts[i]! + durations[i]!;
  }
  close();
  return words;
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
