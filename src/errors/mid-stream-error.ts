import type { PartialToolCall } from '../types/chat.js';
import type { Attempt } from '../types/route-result.js';
import { hasCode, VoxrouteError, type VoxrouteErrorOptions } from './voxroute-error.js';

/**
 * A stream failed after it had yielded output, and the route could not continue it elsewhere.
 * Code `MID_STREAM`. `partialOutput` is always true; `partialText` holds the text delivered so
 * far: for chat, the text deltas joined; for stt, the final transcripts, one space apart (none
 * added where a final already has white space at the seam; partial transcripts are not in it:
 * a final replaces them); undefined for tts. `toolCalls`
 * (chat only) holds the tool calls the failed provider had started in its reply. `cause` is the
 * provider's error.
 *
 * When the route tried to continue the stream on other providers (`midStream` `'resume'`,
 * `'replay'` or `'continue'`) and each of them failed before adding any output, whatever their
 * failure (a 400 or 422 of the provider continuing the stream too: the caller holds output, so
 * the call never ends with that provider's own error), their failures are in this error too: `attempts` lists every attempt of the call with its `error` (the
 * provider that failed after output, then each provider tried to continue the stream), and the
 * message is `Provider '<provider>' failed after output had started: <cause message>`
 * followed by `; continuing on '<provider>' failed: <error message>` for each of them, in order.
 * Every error in it has had the router's redaction applied (no configured secret).
 *
 * A chat reply that had started a tool call is never continued on another provider (even with
 * the route's `midStream: 'continue'`): the continuation could only repeat or corrupt the call,
 * so the stream ends with this error, its `toolCalls` holding what was received.
 */
export class MidStreamError extends VoxrouteError {
  // The class's own name, whatever a bundler renames it to (e.g. `_MidStreamError`): `constructor.name`
  // reads 'MidStreamError' in the built package too.
  static {
    Object.defineProperty(MidStreamError, 'name', { value: 'MidStreamError' });
  }

  override readonly code = 'MID_STREAM';
  /**
   * Text the caller already received: chat deltas joined, or stt finals one space apart, none
   * added where a final already has white space at the seam (no partials).
   */
  readonly partialText: string | undefined;
  /**
   * chat: the tool calls the failed provider had started in its reply, in the reply's order,
   * each with the `arguments` JSON text received so far (cut anywhere when the stream failed
   * inside the call; a call the caller already got whole as a `tool-call` event is listed
   * too); `[]` when it had started none. Undefined for tts and stt.
   */
  readonly toolCalls: PartialToolCall[] | undefined;
  /**
   * Every attempt of the call, in the order they started, each with its `error`: the attempt
   * that failed after output (its error is `cause`) and, when the route tried to continue the
   * stream elsewhere, each attempt that failed doing so. `[]` when not given.
   */
  readonly attempts: Attempt[];

  /**
   * `partialOutput` is always set to true, whatever `options` say; `options.partialText`: the text
   * already delivered (undefined for tts); `options.toolCalls`: the tool calls the
   * failed chat provider had started; `options.cause`: the provider's error;
   * `options.attempts`: the call's attempts (default `[]`).
   */
  constructor(
    message: string,
    options: VoxrouteErrorOptions & {
      partialText?: string;
      toolCalls?: PartialToolCall[];
      attempts?: Attempt[];
    } = {},
  ) {
    super(message, { ...options, partialOutput: true });
    this.name = 'MidStreamError';
    this.partialText = options.partialText;
    this.toolCalls = options.toolCalls;
    this.attempts = options.attempts ?? [];
  }

  static override isInstance(error: unknown): error is MidStreamError {
    return hasCode(error, 'MID_STREAM');
  }
}
