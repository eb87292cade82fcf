/** A word of a transcript, with times in ms from the start of the caller's audio. */
export interface TranscriptWord {
  word: string;
  startMs?: number;
  endMs?: number;
  confidence?: number;
}

/**
 * A transcript update from `router.stt()`. A `partial` may be revised by later events; a
 * `final` is settled and never repeated. Times are ms from the start of the caller's audio.
 * The iterator ends after the last final.
 */
export interface TranscriptEvent {
  type: 'partial' | 'final';
  text: string;
  startMs?: number;
  endMs?: number;
  words?: TranscriptWord[];
  /** Confidence in [0, 1], when the provider gives one. */
  confidence?: number;
}
