import type { RecordedFormValue, RecordedRequest } from './recorded-request.js';

/** Headers of a web request as a plain object with lower-cased names. */
export function headerRecord(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

async function readForm(request: Request): Promise<Record<string, RecordedFormValue | RecordedFormValue[]>> {
  const form: Record<string, RecordedFormValue | RecordedFormValue[]> = {};
  const entries: Array<[string, FormDataEntryValue]> = [];
  (await request.formData()).forEach((value, name) => {
    entries.push([name, value]);
  });
  for (const [name, value] of entries) {
    const entry: RecordedFormValue =
      typeof value === 'string'
        ? value
        : { filename: value.name, contentType: value.type, bytes: new Uint8Array(await value.arrayBuffer()) };
    const existing = form[name];
    if (existing === undefined) form[name] = entry;
    else form[name] = Array.isArray(existing) ? [...existing, entry] : [existing, entry];
  }
  return form;
}

/**
 * Reads `request`'s body into `record`: a multipart form into `record.form` (files as bytes,
 * repeated fields as arrays), anything else into `record.body` (parsed JSON, or the raw text
 * when it is not JSON; nothing for an empty body). Returns false when a multipart form
 * cannot be parsed. Rejects when the body stream fails (e.g. the client went away).
 */
export async function readRequestBody(request: Request, record: RecordedRequest): Promise<boolean> {
  if ((record.headers['content-type'] ?? '').startsWith('multipart/form-data')) {
    try {
      record.form = await readForm(request);
      return true;
    } catch (error) {
      if (request.signal.aborted) throw error;
      return false;
    }
  }
  const text = await request.text();
  if (text === '') return true;
  try {
    record.body = JSON.parse(text);
  } catch {
    record.body = text;
  }
  return true;
}

/**
 * A complete (non-streamed) response: a string body as it is (Content-Type JSON when it parses
 * as JSON, else text/plain), anything else as JSON.
 */
export function completeResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  let text: string;
  let contentType = 'application/json';
  if (typeof body === 'string') {
    text = body;
    try {
      JSON.parse(body);
    } catch {
      contentType = 'text/plain; charset=utf-8';
    }
  } else {
    text = JSON.stringify(body);
  }
  return new Response(text, { status, headers: { 'content-type': contentType, ...headers } });
}
