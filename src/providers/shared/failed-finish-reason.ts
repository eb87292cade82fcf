import { ProviderError } from '../../errors/index.js';

/**
 * Finish reasons outside OpenAI's enum that a server sends in a 200 stream when it stopped the
 * generation rather than ended it:
 * - `abort`: vLLM finishes a request the engine aborted (shutdown, scale-down, sleep mode, an
 *   abort request) with `finish_reason: "abort"`, then sends `[DONE]`, the same end as a
 *   complete answer (vllm-project/vllm issue 57082);
 * - `error`: gateways (OpenRouter) end a generation that failed upstream with
 *   `finish_reason: "error"`, with or without an `error` object beside it.
 */
const FAILED_FINISH_REASONS: ReadonlySet<string> = new Set(['abort', 'error']);

/**
 * The ProviderError of a `finish_reason` (OpenAI chat chunks, vLLM transcription chunks) that
 * says the server stopped the generation (see FAILED_FINISH_REASONS), or undefined for any
 * other reason. The answer so far is cut, not complete: `retryable` true (another provider, or a
 * later try, can answer), `providerCode` the finish reason, `partialOutput` `hadOutput`; never
 * an auth error.
 *
 * @param provider Provider name (the message names it).
 * @param reason The chunk's `finish_reason`.
 * @param hadOutput True when the stream had already yielded output to the caller.
 */
export function failedFinishError(
  provider: string,
  reason: string,
  hadOutput: boolean,
): ProviderError | undefined {
  if (!FAILED_FINISH_REASONS.has(reason)) return undefined;
  return new ProviderError(
    `Provider '${provider}' ended the stream with finish reason '${reason}': the server stopped the generation before its end`,
    { provider, retryable: true, authError: false, partialOutput: hadOutput, providerCode: reason },
  );
}
