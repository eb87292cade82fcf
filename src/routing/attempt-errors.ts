import { MidStreamError } from '../errors/mid-stream-error.js';
import { ProviderError } from '../errors/provider-error.js';
import type { ErrorRedactor } from '../errors/redact.js';
import { VoxrouteError } from '../errors/voxroute-error.js';
import type { PartialToolCall } from '../types/chat.js';
import type { Attempt, Capability } from '../types/route-result.js';

/**
 * True when an attempt's first pull shows an empty answer to a request with something to do
 *: a chat stream that ends, or finishes, before any text or tool call (leading white space is
 * held back by `blankStartHeld`, so a reply of white space only shows its finish first; a finish
 * with reason `content-filter`, a refusal, is an answer), and a TTS stream
 * that ends before any audio (text with no speech never gets this far). STT may end with
 * no transcript at all when the audio held no speech, so it is never empty in this sense.
 */
export function isEmptyAnswer(capability: Capability, first: IteratorResult<unknown>): boolean {
  if (capability === 'stt') return false;
  if (first.done) return true;
  if (capability !== 'chat') return false;
  const event = first.value as { type?: unknown; finishReason?: unknown };
  // A refusal (a safety filter's stop) is the provider's deliberate answer: the caller gets it.
  return event.type === 'finish' && event.finishReason !== 'content-filter';
}

/** True for a reset of a reused keep-alive socket that could not be retried: not the provider's fault. */
export function isReusedSocketReset(error: VoxrouteError): boolean {
  return ProviderError.isInstance(error) && error.reusedSocketReset;
}

/**
 * The error that ends a stream after output: MidStreamError with the provider's error as its
 * cause, `partialText` for text capabilities, `toolCalls` for chat, and the call's `attempts`.
 * `cut` is the attempt that failed after output: each attempt after it that failed (trying to
 * continue the stream) is named in the message too. Every error has been redacted already (see
 * normalize).
 */
export function midStreamError(
  cause: VoxrouteError,
  provider: string,
  partialText: string,
  toolCalls: PartialToolCall[] | undefined,
  attempts: Attempt[],
  cut: Attempt,
): MidStreamError {
  let message = `Provider '${provider}' failed after output had started: ${cause.message}`;
  for (const a of attempts.slice(attempts.indexOf(cut) + 1)) {
    if (a.outcome !== 'failed' || a.error === undefined) continue;
    const text = a.error instanceof Error ? a.error.message || a.error.name : String(a.error);
    message += `; continuing on '${a.provider}' failed: ${text}`;
  }
  return new MidStreamError(message, {
    cause,
    provider,
    retryable: cause.retryable,
    attempts,
    ...(partialText ? { partialText } : {}),
    ...(toolCalls ? { toolCalls } : {}),
  });
}

/**
 * Any error an adapter threw, as a VoxrouteError naming the provider, with every configured
 * secret removed (the one place where the router receives errors built from provider bytes).
 */
export function normalize(
  error: unknown,
  provider: string,
  redact: ErrorRedactor | undefined,
): VoxrouteError {
  if (redact) redact(error);
  if (VoxrouteError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError(`Provider '${provider}' failed: ${message}`, {
    provider,
    retryable: true,
    cause: error,
  });
}
