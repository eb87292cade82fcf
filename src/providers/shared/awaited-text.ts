/**
 * When a streamed-text TTS provider's silence counts as a stall: the one rule every adapter that
 * takes text as a stream (Cartesia's WebSocket contexts, ElevenLabs' stream-input socket) applies
 * to its idle deadline. Silence counts only after the provider's first audio and while it owes
 * an answer:
 * - before its first audio, the wait is the first-chunk deadline's (the router's, from the moment
 *   the provider was given a clause to speak; or the adapter's own `firstByteMs`), however long
 *   that allows, as for every other provider: the idle deadline is counted from the first byte
 *   of the answer (docs/config.md `idleTimeoutMs`);
 * - the provider owes an answer only for text it was asked to speak now: a flush not yet
 *   answered (its audio and the acknowledgement that ends it), or everything once the end of
 *   input was sent. While every such request has been answered, the provider waits for the
 *   caller's next text (an LLM thinking, a tool call taking seconds): that wait is not the
 *   provider's silence, and the idle deadline does not run. Text sent without a flush sits in
 *   the provider's buffer by design (Cartesia `max_buffer_delay_ms`, ElevenLabs' chunk
 *   schedule) and is owed once the next flush or the end asks for it.
 *
 * `onChange(counts)` is called each time the provider's silence starts to count (true: arm the
 * idle deadline from now) or stops counting (false: disarm it).
 */
export class AwaitedText {
  private asked = 0;
  private answered = 0;
  private ended = false;
  private spoken = false;

  constructor(private readonly onChange: (counts: boolean) => void) {}

  /** True while the provider owes an answer (a flush unanswered, or the end of input sent). */
  get owed(): boolean {
    return this.ended || this.asked > this.answered;
  }

  /** True while the provider's silence counts: after its first audio, while it owes an answer. */
  get counts(): boolean {
    return this.spoken && this.owed;
  }

  /** The provider's first audio came (later calls change nothing). */
  audio(): void {
    if (this.spoken) return;
    this.change(() => {
      this.spoken = true;
    });
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
    const before = this.counts;
    step();
    if (this.counts !== before) this.onChange(this.counts);
  }
}
