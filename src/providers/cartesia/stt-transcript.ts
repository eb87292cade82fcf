import type { TranscriptEvent, TranscriptWord } from '../../types/transcript.js';
import type { SttMessage } from './api-types.js';

/** Seconds -> whole ms. */
function ms(seconds: number): number {
  return Math.round(seconds * 1000);
}

/**
 * The words of a transcript message in ms: per-word objects `{word, start, end}` (the wire
 * format, PROTOCOLS.md 1.6), or the parallel arrays `{words, start, end}` of the current TS type
 * (one object or a list of them), all in seconds.
 */
export function transcriptWords(words: SttMessage['words']): TranscriptWord[] {
  if (!words) return [];
  const out: TranscriptWord[] = [];
  const parallel = (w: { words: string[]; start: number[]; end: number[] }) => {
    const count = Math.min(w.words.length, w.start.length, w.end.length);
    for (let i = 0; i < count; i++)
      out.push({ word: w.words[i]!, startMs: ms(w.start[i]!), endMs: ms(w.end[i]!) });
  };
  if (!Array.isArray(words)) {
    parallel(words);
    return out;
  }
  for (const item of words) {
    if (Array.isArray(item.words)) parallel(item as { words: string[]; start: number[]; end: number[] });
    else {
      const word = item as { word: string; start: number; end: number };
      out.push({ word: word.word, startMs: ms(word.start), endMs: ms(word.end) });
    }
  }
  return out;
}

/**
 * The TranscriptEvent of one `transcript` message (PROTOCOLS.md 1.6), or undefined when it
 * says nothing (empty text, or a partial when `interim` is off):
 * - `is_final: true` -> `final`, else `partial`; `text` is the message's text as sent, white
 *   space included: it is the delta since the last final, and Cartesia's transcript is the
 *   finals' texts concatenated without trimming (PROTOCOLS.md 1.6), so a final after the first
 *   usually starts with a space (`"Hello"`, `" world"`); a text of white space only says nothing;
 * - `words` in ms from the start of the audio sent on this socket, with `startMs` / `endMs` of
 *   the event taken from the first and last word;
 * - without words, `endMs` is the message's `duration` (seconds of the socket's audio the
 *   transcript covers, from its start: the end of this segment; PROTOCOLS.md 1.6 gives no start),
 *   so that a final's end is known for midStream 'replay'; no `startMs` then. Neither: no times.
 * The times are not checked here (see `checkedTranscriptTimes`).
 */
export function transcriptEvent(message: SttMessage, interim: boolean): TranscriptEvent | undefined {
  const text = message.text ?? '';
  const final = message.is_final === true;
  if ((!final && !interim) || !/\S/.test(text)) return undefined;
  const event: TranscriptEvent = { type: final ? 'final' : 'partial', text };
  const words = transcriptWords(message.words);
  if (words.length > 0) {
    event.startMs = words[0]!.startMs;
    event.endMs = words[words.length - 1]!.endMs;
    event.words = words;
  } else if (typeof message.duration === 'number') {
    event.endMs = ms(message.duration);
  }
  return event;
}
