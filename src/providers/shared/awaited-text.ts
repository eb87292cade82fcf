/**
 * When a streamed-text TTS provider's silence counts as a stall: the one rule every adapter that
 * takes text as a stream (Cartesia's WebSocket contexts, ElevenLabs' stream-input socket) applies
 * to its idle deadline. The provider owes an answer only for text it was asked to speak now:
 * a flush not yet answered (its audio and the acknowledgement that ends it), or everything once
 * the end of input was sent. While every such request has been answered, the provider waits
 * for the caller's next text (an LLM thinking, a tool call taking seconds): that wait is not the
 * provider's silence, and the idle deadline does not run. Text sent without a flush sits in the
 * provider's buffer by design (Cartesia `max_buffer_delay_ms`, ElevenLabs' chunk schedule) and
 * is owed once the next flush or the end asks for it.
 *
 * `onChange(owed)` is called each time the answer owed starts (true: arm the idle deadline from
 * now) or stops (false: disarm it).
 */
export class AwaitedText {
  private asked = 0;
  private answered = 0;
  private ended = false;

  constructor(private readonly onChange: (owed: boolean) => void) {}

  /** True while the provider owes an answer: the idle deadline runs. */
  get owed(): boolean {
    return this.ended || this.asked > this.answered;
  }

  /** A flush (a request the provider acknowledges once it has spoken the text before it) was sent. */
  flushed(): void {
    this.change(() => {
      this.asked++;
    });
  }

  /** The provider acknowledged the oldest flush still unanswered (Cartesia `flush_done`). */
  flushAnswered(): void {
    this.change(() => {
      if (this.answered < this.asked) this.answered++;
    });
  }

  /** The end of input was sent: the provider owes the rest of the audio until its end. */
  inputEnded(): void {
    this.change(() => {
      this.ended = true;
    });
  }

  private change(step: () => void): void {
    const before = this.owed;
    step();
    if (this.owed !== before) this.onChange(this.owed);
  }
}
