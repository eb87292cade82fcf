import { ProtocolError } from '../../errors/index.js';
import type { TranscriptEvent } from '../../types/transcript.js';

/**
 * `event` as it is when its times are usable: `startMs` and `endMs` (of the event and of each
 * word), where present, are finite, not negative, and an end is not before its start. These
 * times are ms from the start of the audio the provider heard, so a negative, inverted or
 * non-finite one is a malformed provider frame. Throws ProtocolError (retryable,
 * `partialOutput` = `hadOutput`) naming the field (`startMs`, `endMs`, `words.<i>.endMs`...)
 * and `what` (the wire message, e.g. `'Results message'`); the times are not put in the message.
 */
export function checkedTranscriptTimes(
  event: TranscriptEvent,
  provider: string,
  what: string,
  hadOutput: boolean,
): TranscriptEvent {
  const fail = (field: string, problem: string) =>
    new ProtocolError(`Unexpected ${what}: ${field} ${problem}`, { provider, partialOutput: hadOutput });
  const check = (span: { startMs?: number; endMs?: number }, prefix: string) => {
    for (const key of ['startMs', 'endMs'] as const) {
      const value = span[key];
      if (value === undefined) continue;
      if (!Number.isFinite(value)) throw fail(`${prefix}${key}`, 'is not a finite time');
      if (value < 0) throw fail(`${prefix}${key}`, 'is before the start of the audio');
    }
    if (span.startMs !== undefined && span.endMs !== undefined && span.endMs < span.startMs)
      throw fail(`${prefix}endMs`, `is before ${prefix}startMs`);
  };
  check(event, '');
  event.words?.forEach((word, i) => {
    check(word, `words.${i}.`);
  });
  return event;
}
