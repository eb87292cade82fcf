/** A word of a transcript, with times in ms from the start of the caller's audio. */
export interface TranscriptWord {
  /** The word as transcribed (punctuated when the provider punctuates). */
  word: string;
  /**
   * When the word starts, in ms from the start of the caller's audio; undefined when the provider gives no
   * times.
   */
  startMs?: number;
  /**
   * When the word ends, in ms from the start of the caller's audio; undefined when the provider gives no
   * times.
   */
  endMs?: number;
  /** Confidence in [0, 1]; undefined when the provider gives none. */
  confidence?: number;
}

/**
 * A transcript update from `router.stt()`. A `partial` may be revised by later events; a
 * `final` is settled and never repeated. Times are ms from the start of the caller's audio.
 * The iterator ends after the last final.
 *
 * A `final` has a non-empty `text`, except an end-of-speech marker: `{ type: 'final', text: '',
 * endOfSpeech: true }` with no times or words, sent when the provider's endpoint came after the
 * utterance's last words had already been sent as finals (see {@link TranscriptEvent.endOfSpeech}).
 */
export interface TranscriptEvent {
  /** `'partial'`: may still be revised (only with `interim: true`); `'final'`: settled. */
  type: 'partial' | 'final';
  /**
   * The transcript of this segment of speech, as the provider sent it, white space included:
   * Cartesia's finals are pieces of one transcript, and a final after the first usually starts
   * with a space (`"Hello"`, `" world"`); Deepgram's and OpenAI's come without surrounding white
   * space. To join finals into one text, put a space between two only when neither has white
   * space at the seam, as `MidStreamError.partialText` does (`"Hello world"` either way).
   */
  text: string;
  /**
   * Start of the segment, in ms from the start of the caller's audio; undefined when the provider gives no
   * times.
   */
  startMs?: number;
  /**
   * End of the segment, in ms from the start of the caller's audio; undefined when the provider gives no
   * times.
   */
  endMs?: number;
  /** The words of `text` with their times; undefined when the provider gives no word timings. */
  words?: TranscriptWord[];
  /** Confidence in [0, 1], when the provider gives one. */
  confidence?: number;
  /**
   * `true` on the `final` that closes an utterance: the STT provider's endpointing decided the
   * speaker stopped talking (Deepgram: a `Results` message with `speech_final: true`, or an
   * `UtteranceEnd` message when the provider's `utteranceEndMs` is set). Sent at most once per
   * utterance: when the endpoint arrives after the utterance's last words were already sent as
   * finals (Deepgram's `UtteranceEnd`, or `speech_final` on a result with no words), it comes as
   * a marker final with empty `text`; an endpoint with no final since the last one is dropped.
   * Absent (never `false`) on other events and from providers without endpointing (Cartesia,
   * OpenAI, OpenAI-compatible servers, SageMaker containers): for those, speech ends when the
   * caller's audio ends. Only on finals.
   */
  endOfSpeech?: true;
}
