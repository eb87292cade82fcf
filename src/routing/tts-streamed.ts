import { durationMs } from '../audio/format.js';
import type { ProviderAudio, WordTiming } from '../providers/types.js';
import type { AudioChunk } from '../types/audio.js';
import { heardTo } from './resume-text.js';
import type { TtsProgress } from './tts-progress.js';

/**
 * One attempt of streamed text on a provider that takes text as a stream (a Cartesia
 * WebSocket context with `continue: true`, the ElevenLabs stream-input socket): one request for
 * the rest of the utterance, fed the call's clauses as they exist, from the first clause not yet
 * heard. As audio reaches the caller, `progress.delivered` moves past every clause whose last
 * word has been heard (by the provider's word timestamps), so a provider failing mid-context
 * hands over to the next from the first clause not fully heard. Without word timestamps the
 * position cannot be known and the next provider starts from this attempt's first clause.
 *
 * `open(text)` starts the provider's request with the text stream; `toCaller` turns its audio
 * into the caller's chunks (collecting word timestamps into `words`).
 */
export async function* streamedAttempt(
  progress: TtsProgress,
  open: (text: AsyncIterable<string>) => AsyncIterable<ProviderAudio>,
  toCaller: (audio: AsyncIterable<ProviderAudio>, words: WordTiming[]) => AsyncIterable<AudioChunk>,
): AsyncGenerator<AudioChunk, void, undefined> {
  const first = progress.delivered;
  progress.cut = undefined;
  /** The clauses sent, as offsets of their trimmed end in `sent`. */
  const ends: number[] = [];
  let sent = '';
  async function* text(): AsyncGenerator<string, void, undefined> {
    for (let i = first; ; i++) {
      const clause = await progress.sentence(i);
      if (clause === undefined) return;
      ends.push(sent.length + clause.trimEnd().length);
      sent += clause;
      if (clause.trim() !== '') yield clause;
    }
  }
  const words: WordTiming[] = [];
  let deliveredMs = 0;
  for await (const chunk of toCaller(open(text()), words)) {
    yield chunk;
    deliveredMs += durationMs(chunk.format, chunk.data.byteLength);
    progress.delivered = first + heardClauses(sent, ends, words, deliveredMs);
  }
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
