import type { ProviderError } from '../../errors/index.js';
import { copyProviderError } from './copy-provider-error.js';
import type { HttpErrorReader, HttpErrorVerdict } from './http-error-verdict.js';

/**
 * Error codes by which providers say the model or voice sent is unknown: OpenAI's
 * `error.code` `model_not_found` (PROTOCOLS.md 2.1), Kokoro-FastAPI's `detail.error`
 * `invalid_model` (6.2), ElevenLabs' `detail.status` `voice_not_found` / `model_not_found` (4.2).
 * Compared case-insensitively.
 */
const UNKNOWN_MODEL_CODES = new Set(['model_not_found', 'invalid_model', 'voice_not_found']);

/**
 * A message saying the model or voice sent does not exist, as providers without such a code word
 * it: vLLM's "The model `x` does not exist.", "Model x not found", "Unknown voice: x", and
 * Deepgram's documented "Bad Request: No such model/language/tier combination found." (Deepgram
 * API errors, "Text to Speech Errors: 400 Unknown Model").
 */
const UNKNOWN_MODEL_MESSAGE =
  /\b(model|voice)\b[^.\n]{0,100}?\b(does not exist|doesn't exist|not found)\b|\bunknown (model|voice)\b|\bno such (model|voice)\b/i;

/** Client-error statuses under which providers report an unknown model or voice. */
const UNKNOWN_MODEL_STATUSES = new Set([400, 404, 422]);

/** What a provider said about a refused request, as {@link namesUnknownModel} reads it. */
export interface RefusalWords {
  /**
   * The HTTP status, or the HTTP-like status an error frame carries (Cartesia's `status_code`);
   * undefined when there is none (an ElevenLabs stream-input error message).
   */
  status?: number | undefined;
  /** The provider's error code (`error.code`, `error_code`, `detail.status`, `error`...). */
  code?: unknown;
  /** The provider's own words (message, title), without the provider's configured name. */
  text?: string | undefined;
}

/**
 * True when a provider's refusal says that the model or voice it was sent is unknown. The one
 * rule for every adapter:
 * - a status, when there is one, must be 400, 404 or 422;
 * - then an error code `model_not_found`, `invalid_model` or `voice_not_found` says so;
 * - so does, under such a status only (a message alone, with no status, is not enough), a
 *   message that the model or voice does not exist, is not found or unknown, or that there is
 *   "no such model".
 */
export function namesUnknownModel(words: RefusalWords): boolean {
  const { status, code, text } = words;
  if (status !== undefined && !UNKNOWN_MODEL_STATUSES.has(status)) return false;
  if (typeof code === 'string' && UNKNOWN_MODEL_CODES.has(code.toLowerCase())) return true;
  return status !== undefined && text !== undefined && UNKNOWN_MODEL_MESSAGE.test(text);
}

/**
 * The HTTP error reader of {@link namesUnknownModel} (see `readHttpError`): a ProviderError with
 * an HTTP status whose `providerCode` or message names an unknown model or voice is
 * `{ unknownModel: true }`: the model or voice id comes from the router config's mapping for
 * this provider, so the router falls back to the next candidate even on a 400 and charges this
 * one an ordinary failure (see `ProviderError.unknownModel`). Anything else keeps the
 * transport's verdict.
 */
export const readUnknownModelHttpError: HttpErrorReader = (error): HttpErrorVerdict | undefined =>
  namesUnknownModel({ status: error.status, code: error.providerCode, text: ownWords(error) })
    ? { unknownModel: true }
    : undefined;

/**
 * `error` with `unknownModel: true` when `words` (the provider's own fields, from an error frame
 * or message inside a stream) name an unknown model or voice ({@link namesUnknownModel});
 * otherwise `error` itself. The copy keeps every other field, with `error` as its `cause`.
 */
export function markUnknownModel(error: ProviderError, words: RefusalWords): ProviderError {
  if (error.unknownModel || !namesUnknownModel(words)) return error;
  return copyProviderError(error, { unknownModel: true });
}

/** The message of `error` without the provider's name (a config key such as 'voice-backup'). */
function ownWords(error: ProviderError): string {
  return error.provider ? error.message.replaceAll(error.provider, '') : error.message;
}
