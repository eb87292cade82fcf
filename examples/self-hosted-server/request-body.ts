import type { IncomingMessage } from 'node:http';
import { ApiError } from './api-error.js';

/** Largest JSON body accepted (chat and speech requests), in bytes: 1 MiB. */
export const MAX_JSON_BYTES = 1024 * 1024;

/** Largest upload accepted by the transcription endpoint, in bytes: 25 MB, as OpenAI's limit. */
export const MAX_UPLOAD_BYTES = 25 * 1000 * 1000;

function tooLarge(limit: number): ApiError {
  return new ApiError(413, `The request body is larger than ${limit} bytes.`, { code: 'request_too_large' });
}

function declaredLength(req: IncomingMessage): number | undefined {
  const header = req.headers['content-length'];
  if (header === undefined) return undefined;
  const n = Number(header);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * Reads the whole request body as a JSON object.
 * Throws ApiError 413 past `limit` bytes (default {@link MAX_JSON_BYTES}), 400 `invalid_json`
 * when it is not JSON, and 400 `invalid_body` when the JSON is not an object.
 */
export async function readJsonBody(
  req: IncomingMessage,
  limit = MAX_JSON_BYTES,
): Promise<Record<string, unknown>> {
  const declared = declaredLength(req);
  if (declared !== undefined && declared > limit) {
    req.resume();
    throw tooLarge(limit);
  }
  const parts: Buffer[] = [];
  let total = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    total += chunk.byteLength;
    if (total > limit) {
      req.resume();
      throw tooLarge(limit);
    }
    parts.push(chunk);
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(parts).toString('utf8'));
  } catch {
    throw new ApiError(400, 'We could not parse the JSON body of your request.', { code: 'invalid_json' });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError(400, 'The request body must be a JSON object.', { code: 'invalid_body' });
  }
  return value as Record<string, unknown>;
}

/**
 * Reads a `multipart/form-data` request body with the web `Request.formData()` (undici's
 * parser, built into Node), by adapting the node request into a `Request`.
 * Throws ApiError 400 `invalid_content_type` when the body is not multipart, 413 past `limit`
 * bytes (default {@link MAX_UPLOAD_BYTES}), and 400 `invalid_multipart` when it cannot be parsed.
 */
export async function readFormData(req: IncomingMessage, limit = MAX_UPLOAD_BYTES): Promise<FormData> {
  const contentType = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    req.resume();
    throw new ApiError(400, 'The request must be multipart/form-data.', { code: 'invalid_content_type' });
  }
  const declared = declaredLength(req);
  if (declared !== undefined && declared > limit) {
    req.resume();
    throw tooLarge(limit);
  }
  let total = 0;
  let exceeded = false;
  const iterator = (req as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) {
        controller.close();
        return;
      }
      total += next.value.byteLength;
      if (total > limit) {
        exceeded = true;
        req.resume();
        controller.error(new Error('body too large'));
        return;
      }
      controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength));
    },
    cancel() {
      req.resume();
    },
  });
  // `duplex: 'half'` is required by Node's fetch for a streamed body; the DOM typings lack it.
  const init = { method: 'POST', headers: { 'content-type': contentType }, body, duplex: 'half' };
  const request = new Request('http://localhost/upload', init as RequestInit);
  try {
    return await request.formData();
  } catch {
    if (exceeded) throw tooLarge(limit);
    throw new ApiError(400, 'The multipart/form-data body could not be parsed.', {
      code: 'invalid_multipart',
    });
  }
}
