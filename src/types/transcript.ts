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
 */
export interface TranscriptEvent {
  /** `'partial'`: may still be revised (only with `interim: true`); `'final'`: settled. */
  type: 'partial' | 'final';
  /** The transcript of this segment of speech. */
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
}
