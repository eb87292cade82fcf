import { hasCode, VoxrouteError, type VoxrouteErrorOptions } from './voxroute-error.js';

/**
 * A stream failed after it had yielded output, and the route could not continue it elsewhere.
 * Code `MID_STREAM`. `partialOutput` is always true; `partialText` holds the text delivered so
 * far: for chat, the text deltas joined; for stt, the final transcripts, one space apart
 * (partial transcripts are not in it: a final replaces them); undefined for tts. `cause` is the
 * provider's error.
 */
export class MidStreamError extends VoxrouteError {
  // The class's own name, whatever a bundler renames it to (e.g. `_MidStreamError`): `constructor.name`
  // reads 'MidStreamError' in the built package too.
  static {
    Object.defineProperty(MidStreamError, 'name', { value: 'MidStreamError' });
  }

  override readonly code = 'MID_STREAM';
  /** Text the caller already received: chat deltas joined, or stt finals one space apart (no partials). */
  readonly partialText: string | undefined;

  constructor(message: string, options: VoxrouteErrorOptions & { partialText?: string } = {}) {
    super(message, { ...options, partialOutput: true });
    this.name = 'MidStreamError';
    this.partialText = options.partialText;
  }

  static override isInstance(error: unknown): error is MidStreamError {
    return hasCode(error, 'MID_STREAM');
  }
}
