import { ProtocolError } from '../../../errors/index.js';
import type { TranscriptEvent } from '../../../types/transcript.js';
import { failedFinishError } from '../failed-finish-reason.js';
import type { TranscriptionEvent } from './api-types.js';

/** What {@link TranscriptAssembler.push} made of one event. */
export interface TranscriptStep {
  events: TranscriptEvent[];
  /** True when the event ended the transcript (`transcript.text.done`). */
  done: boolean;
}

/**
 * Turns the events of one streamed `/audio/transcriptions` response into TranscriptEvents.
 * It reads three dialects (PROTOCOLS.md §2.4, §6.1, §6.3):
 * - OpenAI: `transcript.text.delta` events, then `transcript.text.done` with the whole text
 *   (a `[DONE]` after it is tolerated: the stream is over at `done`);
 * - speaches: one `transcript.text.delta` per Whisper segment, then `transcript.text.done`, no `[DONE]`;
 * - vLLM: chat-like `transcription.chunk` objects (`choices[0].delta.content`), then `[DONE]`.
 * Each non-empty delta becomes, when `interim` is set, a `partial` carrying the whole text so
 * far; the stream ends with exactly one `final` (the `done` event's text, or the joined deltas
 * for vLLM). Texts are trimmed of surrounding whitespace (Whisper starts segments with a
 * space). Both carry `startMs: 0`; the final's `endMs` is `audioMs`, the length of the audio sent.
 * Other event types (e.g. `transcript.text.segment` of the diarize model) are ignored.
 */
export class TranscriptAssembler {
  /** True once a partial has been produced (for `partialOutput`). */
  hadOutput = false;
  private text = '';
  private lastPartial = '';
  private sawFinishReason = false;

  constructor(
    private readonly provider: string,
    private readonly interim: boolean,
    private readonly audioMs: number,
  ) {}

  /**
   * Events for one parsed event. Throws ProviderError (retryable) for a vLLM chunk whose finish
   * reason says the server stopped the transcription (`abort`, `error`: see `failedFinishError`).
   */
  push(event: TranscriptionEvent): TranscriptStep {
    if (event.type === 'transcript.text.done') {
      return { events: [this.final(event.text ?? this.text)], done: true };
    }
    if (event.type === 'transcript.text.delta') {
      return { events: this.addDelta(event.delta), done: false };
    }
    if (event.choices) {
      const choice = event.choices[0];
      const events = this.addDelta(choice?.delta?.content);
      if (choice?.finish_reason) {
        const failed = failedFinishError(this.provider, choice.finish_reason, this.hadOutput);
        if (failed) throw failed;
        this.sawFinishReason = true;
      }
      return { events, done: false };
    }
    return { events: [], done: false };
  }

  /**
   * The final once the stream ended without `transcript.text.done`: at `[DONE]` (`how` =
   * `'done'`), or at the end of the body after a vLLM `finish_reason` (`'eof'`). Throws
   * ProtocolError (truncated, retryable, `partialOutput` = `hadOutput`) at an end of body
   * with neither.
   */
  end(how: 'done' | 'eof'): TranscriptEvent[] {
    if (how === 'eof' && !this.sawFinishReason) {
      throw new ProtocolError('Transcription stream ended before its final event (truncated)', {
        provider: this.provider,
        partialOutput: this.hadOutput,
      });
    }
    return [this.final(this.text)];
  }

  private addDelta(delta: string | null | undefined): TranscriptEvent[] {
    if (!delta) return [];
    this.text += delta;
    const text = this.text.trim();
    if (!this.interim || text === '' || text === this.lastPartial) return [];
    this.lastPartial = text;
    this.hadOutput = true;
    return [{ type: 'partial', text, startMs: 0 }];
  }

  private final(text: string): TranscriptEvent {
    return { type: 'final', text: text.trim(), startMs: 0, endMs: this.audioMs };
  }
}
