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
 * - `confidence` is the alternative's;
 * - `speech_final: true` (Deepgram's endpointing: the speaker paused) on a final with text sets
 *   `endOfSpeech: true`; on an empty one it gives nothing here (see {@link EndpointTracker},
 *   which turns it into a marker final when the utterance is still open).
 * `from_finalize` has no field in TranscriptEvent: each `is_final` result is a settled `final`
 * of its own, in arrival order.
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
  if (final && results.speech_final === true) event.endOfSpeech = true;
  return event;
}

/**
 * Keeps Deepgram's two end-of-utterance signals to one `endOfSpeech` per utterance
 * (PROTOCOLS.md 3.2, DGDOC-endpointing, DGDOC-utterance-end): an utterance is open from the
 * first final with text after the last end of speech. `speech_final: true` on a final with text
 * closes it on that final; `speech_final: true` on a result with no words, or an `UtteranceEnd`
 * message, closes an open utterance with a marker final (`{ type: 'final', text: '',
 * endOfSpeech: true }`, no times) and is dropped when none is open (the endpoint was already
 * reported, or nothing was said).
 */
export class EndpointTracker {
  #open = false;

  /** Notes an event about to be yielded; returns it unchanged. */
  seen(event: TranscriptEvent): TranscriptEvent {
    if (event.type === 'final') this.#open = event.endOfSpeech !== true;
    return event;
  }

  /** The marker final for an endpoint signal without words of its own, or undefined when no utterance is open. */
  endpoint(): TranscriptEvent | undefined {
    if (!this.#open) return undefined;
    this.#open = false;
    return { type: 'final', text: '', endOfSpeech: true };
  }
}
