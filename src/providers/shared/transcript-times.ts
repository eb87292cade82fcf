import { ProtocolError } from '../../errors/index.js';
import type { TranscriptEvent } from '../../types/transcript.js';

/**
 * How far past the end of the audio sent a transcript time may lie, in ms, before it is taken
 * for a malformed frame: providers send seconds, rounded (to 10 ms at 2 decimals) and snapped
 * to their model's frames (10-20 ms; Whisper-style timestamps step by 20 ms), a segment's end
 * may be padded to a model window, and the adapters round to whole ms. 250 ms covers that with
 * room (no provider's exact overshoot was measured here; a false alarm would fail over every
 * call, a generous bound costs nothing: the router's replay point is clamped to the audio it
 * read); a time further out names audio the provider never heard.
 */
export const TRANSCRIPT_TIME_TOLERANCE_MS = 250;

/**
 * `event` as it is when its times are usable: `startMs` and `endMs` (of the event and of each
 * word), where present, are finite, not negative, not past the end of the audio sent when
 * `audioMs` is given (the ms of audio sent on this session so far; a time later than
 * `audioMs + TRANSCRIPT_TIME_TOLERANCE_MS` names audio the provider never heard), and an end
 * is not before its start. These times are ms from the start of the audio the provider heard,
 * so a negative, inverted, future or non-finite one is a malformed provider frame. Throws
 * ProtocolError (retryable, `partialOutput` = `hadOutput`) naming the field (`startMs`,
 * `endMs`, `words.<i>.endMs`...) and `what` (the wire message, e.g. `'Results message'`); the
 * times are not put in the message.
 */
export function checkedTranscriptTimes(
  event: TranscriptEvent,
  provider: string,
  what: string,
  hadOutput: boolean,
  audioMs?: number,
): TranscriptEvent {
  const fail = (field: string, problem: string) =>
    new ProtocolError(`Unexpected ${what}: ${field} ${problem}`, { provider, partialOutput: hadOutput });
  const latest = audioMs === undefined ? Number.POSITIVE_INFINITY : audioMs + TRANSCRIPT_TIME_TOLERANCE_MS;
  const check = (span: { startMs?: number; endMs?: number }, prefix: string) => {
    for (const key of ['startMs', 'endMs'] as const) {
      const value = span[key];
      if (value === undefined) continue;
      if (!Number.isFinite(value)) throw fail(`${prefix}${key}`, 'is not a finite time');
      if (value < 0) throw fail(`${prefix}${key}`, 'is before the start of the audio');
    }
    if (span.startMs !== undefined && span.endMs !== undefined && span.endMs < span.startMs)
      throw fail(`${prefix}endMs`, `is before ${prefix}startMs`);
    for (const key of ['startMs', 'endMs'] as const) {
      if ((span[key] ?? 0) > latest) throw fail(`${prefix}${key}`, 'is after the end of the audio sent');
    }
  };
  check(event, '');
  event.words?.forEach((word, i) => {
    check(word, `words.${i}.`);
  });
  return event;
}
