import type { TranscriptEvent, TranscriptWord } from '../../types/transcript.js';
import type { ListenResults } from './api-types.js';

/** Seconds (Deepgram's unit) to whole ms. */
function ms(seconds: number): number {
  return Math.round(seconds * 1000);
}

/**
 * The TranscriptEvent of one `Results` message (PROTOCOLS.md 3.2), or undefined when there is
 * nothing to report:
 * - the text is `channel.alternatives[0].transcript`, trimmed; an empty transcript (silence)
 *   gives nothing;
 * - `is_final: true` gives a `final`; an interim result gives a `partial`, only when `interim`
 *   is set (Deepgram may send interim results anyway, e.g. for `utterance_end_ms`);
 * - `startMs` = `start`, `endMs` = `start + duration` (the audio the result covers), and each
 *   word's `startMs` / `endMs` from its `start` / `end`, all converted from seconds to whole ms
 *   from the start of the audio; a word's text is its `punctuated_word` when present (smart
 *   format, punctuation), else `word`;
 * - `confidence` is the alternative's.
 * `speech_final` (an endpoint) and `from_finalize` have no field in TranscriptEvent: each
 * `is_final` result is a settled `final` of its own, in arrival order.
 */
export function transcriptEventOf(results: ListenResults, interim: boolean): TranscriptEvent | undefined {
  const final = results.is_final === true;
  if (!final && !interim) return undefined;
  const alternative = results.channel.alternatives[0];
  const text = alternative?.transcript.trim() ?? '';
  if (!alternative || text === '') return undefined;
  const event: TranscriptEvent = { type: final ? 'final' : 'partial', text };
  if (typeof results.start === 'number') {
    event.startMs = ms(results.start);
    if (typeof results.duration === 'number') event.endMs = ms(results.start + results.duration);
  }
  if (alternative.words && alternative.words.length > 0) {
    event.words = alternative.words.map((w) => {
      const word: TranscriptWord = {
        word: w.punctuated_word ?? w.word,
        startMs: ms(w.start),
        endMs: ms(w.end),
      };
      if (typeof w.confidence === 'number') word.confidence = w.confidence;
      return word;
    });
  }
  if (typeof alternative.confidence === 'number') event.confidence = alternative.confidence;
  return event;
}
