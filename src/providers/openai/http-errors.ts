import type { HttpErrorReader } from '../shared/http-error-verdict.js';
import { readUnknownModelHttpError } from '../shared/unknown-model.js';

/**
 * How the OpenAI adapters read an HTTP error answer (`{"error":{"message","type","code"}}`, or
 * vLLM's flat `{"message","type","code"}`, as the transport parsed it; PROTOCOLS.md 2.1, 6.1):
 * a 400, 404 or 422 whose `code` is `model_not_found` or `invalid_model`, or whose message says
 * the model or voice does not exist (vLLM's "The model `x` does not exist."), is
 * `{ unknownModel: true }`: the model or voice id comes from the router config's mapping for this
 * provider, so the router falls back to the next candidate even on a 400 (see
 * `ProviderError.unknownModel`). The rule is the one every adapter shares (`namesUnknownModel`).
 * Any other answer keeps the transport's verdict.
 */
export const readOpenAiHttpError: HttpErrorReader = readUnknownModelHttpError;
