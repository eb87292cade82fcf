import { clipMessage, excerpt } from './excerpt.js';

/** What {@link parseErrorBody} found in an error body. */
export interface ParsedErrorBody {
  /** The provider's message, or a short excerpt of the body; at most 500 characters. */
  message: string;
  /** The provider's error type, e.g. `'invalid_request_error'`, `'overloaded_error'`. */
  providerType?: string;
  /** The provider's error code: a string (`'rate_limit_exceeded'`) or vLLM's integer status. */
  providerCode?: string | number;
  /** The request parameter the error is about (OpenAI's `error.param`). */
  param?: string;
}

const MAX_EXCERPT = 200;

/**
 * Reads a provider's error response body into a message, type and code. Understands:
 * - OpenAI and OpenAI-compatible servers: `{"error":{"message","type","code","param"}}`, where
 *   vLLM's `code` is an integer HTTP status and OpenAI's a string or null (PROTOCOLS.md 2.1, 6.1);
 *   also `{"error":"text"}` (with TGI's `error_type` as the type: `{"error","error_type":"validation"}`);
 * - Anthropic: `{"type":"error","error":{"type","message"}}` (6b);
 * - FastAPI servers: `{"detail":"..."}` (speaches), `{"detail":{"error","message","type"}}`
 *   (Kokoro), `{"detail":{"status","message"}}` (ElevenLabs) and validation errors
 *   `{"detail":[{"loc":[...],"msg"}]}` (6.2, 6.3, 4.2);
 * - flat bodies: Cartesia `{"error_code","title","message"}`, Deepgram `{"err_code","err_msg"}`
 *   and `{"category","message"}`, AWS `{"Message"|"message", "__type"|"code"}` (1.1, 3.4, 5.4).
 *
 * Anything else (plain text, HTML, unknown JSON) gives a short excerpt of the text, whitespace
 * collapsed, at most 200 characters. Never throws.
 *
 * @param text The body, decoded as UTF-8 (possibly cut at the transport's error-body limit), with
 *   any secret already redacted: the message is cut to its length limit after that.
 * @param contentType The response's `content-type`, if any (JSON is also sniffed from `{`).
 */
export function parseErrorBody(text: string, contentType?: string): ParsedErrorBody {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || contentType?.includes('json')) {
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch {
      json = undefined;
    }
    const parsed = isObject(json) ? fromObject(json) : undefined;
    if (parsed) return parsed;
  }
  return { message: excerpt(trimmed, MAX_EXCERPT) || '(empty body)' };
}

function fromObject(body: Record<string, unknown>): ParsedErrorBody | undefined {
  const error = body.error;
  if (isObject(error)) {
    const message = str(error.message) ?? str(error.msg) ?? str(body.message);
    if (message !== undefined) {
      return result(message, str(error.type), code(error.code), str(error.param));
    }
  } else if (typeof error === 'string' && error) {
    // TGI: `{"error":"Input validation error: ...","error_type":"validation"}` (as in its stream).
    return result(error, str(body.type) ?? str(body.error_type), code(body.code));
  }
  const detail = body.detail;
  if (typeof detail === 'string') return result(detail);
  if (isObject(detail)) {
    const message = str(detail.message) ?? str(detail.msg);
    if (message !== undefined) {
      return result(
        message,
        str(detail.type),
        code(detail.error) ?? code(detail.status) ?? code(detail.code),
      );
    }
  }
  if (Array.isArray(detail) && detail.length > 0) {
    const parts = detail.filter(isObject).map((item) => {
      const loc = Array.isArray(item.loc) ? item.loc.join('.') : undefined;
      const msg = str(item.msg) ?? str(item.message) ?? 'invalid';
      return loc ? `${loc}: ${msg}` : msg;
    });
    if (parts.length > 0) return result(parts.join('; '), str((detail[0] as Record<string, unknown>).type));
  }
  const message = str(body.message) ?? str(body.Message) ?? str(body.err_msg);
  if (message !== undefined) {
    const title = str(body.title);
    return result(
      title && title !== message ? `${title}: ${message}` : message,
      str(body.type) ?? str(body.category),
      code(body.error_code) ??
        code(body.err_code) ??
        code(body.code) ??
        code(body.ErrorCode) ??
        code(body.__type),
    );
  }
  return undefined;
}

function result(
  message: string,
  providerType?: string,
  providerCode?: string | number,
  param?: string,
): ParsedErrorBody {
  const out: ParsedErrorBody = { message: clipMessage(message) };
  if (providerType !== undefined) out.providerType = providerType;
  if (providerCode !== undefined) out.providerCode = providerCode;
  if (param !== undefined) out.param = param;
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function code(value: unknown): string | number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  return str(value);
}
