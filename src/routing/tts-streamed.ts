import { durationMs } from '../audio/format.js';
import { ProtocolError } from '../errors/protocol-error.js';
import type { ProviderAudio, TtsTextPiece, WordTiming } from '../providers/types.js';
import { speakable } from '../text/speakable.js';
import type { AudioChunk } from '../types/audio.js';
import { heardTo } from './resume-text.js';
import type { TtsProgress } from './tts-progress.js';

/**
 * One attempt of streamed text on a provider that takes text as a stream (a Cartesia
 * WebSocket context with `continue: true`, the ElevenLabs stream-input socket): one request for
 * the rest of the utterance, fed the caller's text as it arrives (tokens, see
 * {@link TtsProgress.pieces}) from the first clause not yet heard, with each clause end the clause
 * splitter finds marked (`clauseEnd: true`: the adapter flushes there). `ready()` is called when
 * the piece ending the first clause (or the end of the text) is handed to the adapter: the
 * provider then has enough text to speak, and the attempt's clocks (first-chunk deadline, hedge
 * delay, time to first chunk) start there, not while the text source thinks.
 * As audio reaches the caller, `progress.delivered` moves past every clause whose audio the
 * caller has received in full: by the provider's word timestamps (its last word heard), or by
 * the provider's own word that the clause's audio is complete (`ProviderAudio.clausesDone`,
 * e.g. Cartesia's `flush_done`) once every chunk before that word reached the caller. A
 * provider failing mid-context hands over to the next from the first clause not fully heard:
 * only the clause that was cut is heard again. A provider that gives neither (ElevenLabs
 * without alignment data) leaves the position unknown: the next provider then starts from
 * this attempt's first clause not known to be heard.
 *
 * The caller's text failing: the request is given no text past the last complete clause (see
 * {@link TtsProgress.pieces}); its clauses are spoken, then the failure is thrown. A complete
 * clause that could not be marked in it (held with unfinished text already sent) is spoken by a
 * new request on the same provider once the request's clauses were all heard.
 *
 * A provider that says clauses are complete (`clausesDone`) without a byte of audio since it
 * last said so, for clauses with something to speak, skipped them: a ProtocolError (retryable)
 * at once, with the position left before them, so the route's `midStream` rule applies from
 * there (the next provider speaks them); so does a request that ends with clauses to speak
 * after the last one it said complete and no audio since. Without a provider's `clausesDone`
 * only the request as a whole is checked (no audio at all: `toCaller`'s ProtocolError).
 *
 * `provider` names the provider in errors; `open(text)` starts the provider's request with the
 * text stream; `toCaller` turns its audio into the caller's chunks (collecting word timestamps
 * into `words`, and calling `onClausesDone` with the provider's `clausesDone` and its audio
 * bytes so far once the audio before it reached the caller).
 */
export async function* streamedAttempt(
  progress: TtsProgress,
  provider: string,
  open: (text: AsyncIterable<TtsTextPiece>) => AsyncIterable<ProviderAudio>,
  toCaller: (
    audio: AsyncIterable<ProviderAudio>,
    words: WordTiming[],
    onClausesDone: (clauses: number, audioBytes: number) => void,
  ) => AsyncIterable<AudioChunk>,
  ready: () => void = () => {},
): AsyncGenerator<AudioChunk, void, undefined> {
  progress.cut = undefined;
  for (;;) {
    const first = progress.delivered;
    const sent = { clauses: 0 };
    try {
      yield* oneRequest(progress, provider, first, sent, open, toCaller, ready);
      break;
    } catch (error) {
      // The caller's text failed with a complete clause that could not be asked for in this
      // request (its end lies inside unfinished text already sent): once every clause this
      // request was given has been heard, a new request speaks the rest of the complete clauses.
      const failure = progress.failure;
      const again =
        failure !== undefined &&
        error === failure &&
        progress.delivered === first + sent.clauses &&
        progress.failedBefore(progress.delivered);
      if (!again) throw error;
    }
  }
  // The caller's text failed after complete clauses: they were spoken, then the call fails.
  const failure = progress.failure;
  if (failure) throw failure;
}

/**
 * One request of {@link streamedAttempt} from clause `first`; `sent.clauses` counts the clauses
 * it was given (marked by a clause end, or ending the text).
 */
async function* oneRequest(
  progress: TtsProgress,
  provider: string,
  first: number,
  sent: { clauses: number },
  open: (text: AsyncIterable<TtsTextPiece>) => AsyncIterable<ProviderAudio>,
  toCaller: (
    audio: AsyncIterable<ProviderAudio>,
    words: WordTiming[],
    onClausesDone: (clauses: number, audioBytes: number) => void,
  ) => AsyncIterable<AudioChunk>,
  ready: () => void,
): AsyncGenerator<AudioChunk, void, undefined> {
  /** The clauses sent, as offsets of their trimmed end in `said`. */
  const ends: number[] = [];
  /**
   * For each clause end marked (a piece with `clauseEnd: true`, what a provider's `clausesDone`
   * counts), how many clauses it completes: a clause released by the timer of held text and left
   * unmarked ({@link TtsProgress.pieces}) is completed by the next clause end, with that clause.
   */
  const marks: number[] = [];
  let said = '';
  async function* text(): AsyncGenerator<TtsTextPiece, void, undefined> {
    /** True until the context has been given a word: white space in front of it is dropped. */
    let leading = true;
    /**
     * True once a clause end was marked (or the last clause handed out) after text with
     * something to speak: the provider speaks. A clause with nothing to speak ahead of it
     * ("\n\n", "...", a code fence line) starts no clock: the provider has nothing to answer
     * until the next clause, which the caller's text may still be writing.
     */
    let asked = false;
    /** A clause handed out so far has something to speak ({@link speakable}). */
    let speech = false;
    for await (const piece of progress.pieces(first, (clause, marked) => {
      ends.push(said.length + clause.trimEnd().length);
      said += clause;
      sent.clauses = ends.length;
      speech ||= speakable(clause);
      if (marked) {
        asked ||= speech;
        marks.push(ends.length);
      }
    })) {
      if (asked) ready();
      if (leading) {
        // A clause released at its punctuation leaves the white space after it to the next
        // clause (" See you"): within a context it joins the two, at a new context's start it
        // is dropped.
        const trimmed = piece.text.trimStart();
        if (trimmed === '' && !piece.clauseEnd) continue;
        leading = trimmed === '';
        yield trimmed === piece.text ? piece : { ...piece, text: trimmed };
        continue;
      }
      yield piece;
    }
    ready();
  }
  const words: WordTiming[] = [];
  let deliveredMs = 0;
  /** Clauses heard in full: by word timestamps, or as the provider said (never more than were sent). */
  let heard = 0;
  /**
   * The provider's word that clauses are complete (`clausesDone`): how many (of `ends`), its
   * audio bytes by then, and the caller's audio bytes by then.
   */
  const done = { clauses: 0, audioBytes: 0, callerBytes: 0 };
  let callerBytes = 0;
  /** Throws when clauses `from` to `to` (of `ends`) have something to speak: they got no audio. */
  const noAudioFor = (from: number, to: number) => {
    if (to <= from || !speakable(said.slice(from > 0 ? ends[from - 1]! : 0, ends[to - 1]!))) return;
    const which = to - from > 1 ? `clauses ${from + 1} to ${to}` : `clause ${from + 1}`;
    throw new ProtocolError(
      `Provider '${provider}' returned no audio for text it was given (${which} of its request)`,
      { provider },
    );
  };
  const onClausesDone = (clauseEnds: number, audioBytes: number) => {
    const n = Math.min(clauseEnds, marks.length);
    const through = n > 0 ? marks[n - 1]! : 0;
    if (through > done.clauses) {
      if (audioBytes === done.audioBytes) noAudioFor(done.clauses, through);
      done.clauses = through;
      done.audioBytes = audioBytes;
      done.callerBytes = callerBytes;
    }
    heard = Math.max(heard, through);
    progress.delivered = first + heard;
  };
  for await (const chunk of toCaller(open(text()), words, onClausesDone)) {
    yield chunk;
    callerBytes += chunk.data.byteLength;
    deliveredMs += durationMs(chunk.format, chunk.data.byteLength);
    heard = Math.max(heard, heardClauses(said, ends, words, deliveredMs));
    progress.delivered = first + heard;
  }
  // A provider that says when clauses are complete: those after the last it said so were spoken
  // by the end of the request (all of whose audio has now reached the caller).
  if (done.clauses > 0 && callerBytes === done.callerBytes) noAudioFor(done.clauses, ends.length);
  progress.delivered = first + ends.length;
}

/** How many clauses (ending at `ends` in `text`) were heard to their last word within `deliveredMs`. */
export function heardClauses(
  text: string,
  ends: readonly number[],
  words: readonly WordTiming[],
  deliveredMs: number,
): number {
  const { end } = heardTo(text, words, deliveredMs);
  let n = 0;
  while (n < ends.length && ends[n]! <= end) n++;
  return n;
}
