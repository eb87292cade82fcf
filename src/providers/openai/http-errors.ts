import type { HttpErrorReader, HttpErrorVerdict } from '../shared/http-error-verdict.js';

/** `error.code` values by which OpenAI and compatible servers say the model sent is unknown (PROTOCOLS.md 2.1). */
const UNKNOWN_MODEL_CODES = new Set(['model_not_found', 'invalid_model']);

/**
 * A message saying the model or voice sent does not exist, as servers without such a code word
 * it: vLLM's "The model `x` does not exist.", "Model x not found", "Unknown voice: x".
 */
const UNKNOWN_MODEL_MESSAGE =
  /\b(model|voice)\b[^.\n]{0,100}?\b(does not exist|doesn't exist|not found)\b|\bunknown (model|voice)\b/i;

/** Client-error statuses under which servers report an unknown model or voice. */
const UNKNOWN_MODEL_STATUSES = new Set([400, 404, 422]);

/**
 * How the OpenAI adapters read an HTTP error answer (`{"error":{"message","type","code"}}`, or
 * vLLM's flat `{"message","type","code"}`, as the transport parsed it): a 400, 404 or 422 whose
 * `code` is `model_not_found` or `invalid_model`, or whose message says the model or voice does
 * not exist, is `{ unknownModel: true }`: the model or voice id comes from the router config's
 * mapping for this provider, so the router falls back to the next candidate even on a 400
 * (see `ProviderError.unknownModel`). Any other answer keeps the transport's verdict.
 */
export const readOpenAiHttpError: HttpErrorReader = (error): HttpErrorVerdict | undefined => {
  if (!UNKNOWN_MODEL_STATUSES.has(error.status)) return undefined;
  const code = typeof error.providerCode === 'string' ? error.providerCode.toLowerCase() : undefined;
  if (code !== undefined && UNKNOWN_MODEL_CODES.has(code)) return { unknownModel: true };
  // The provider's name (a config key such as 'voice-backup') is no part of what it said.
  const said = error.provider ? error.message.replaceAll(error.provider, '') : error.message;
  return UNKNOWN_MODEL_MESSAGE.test(said) ? { unknownModel: true } : undefined;
};
