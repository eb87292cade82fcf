/** One part of a multipart/form-data body: a text field, or a file with its name and type. */
export type MultipartPart =
  | { name: string; value: string }
  | { name: string; filename: string; contentType: string; data: Uint8Array };

/** A multipart/form-data body as bytes, with the `Content-Type` header value that names its boundary. */
export interface MultipartBody {
  body: Uint8Array;
  /** `multipart/form-data; boundary=<boundary>`. */
  contentType: string;
  boundary: string;
}

/**
 * Encodes `parts` as multipart/form-data (RFC 7578): each part is `--boundary` CRLF, a
 * `Content-Disposition: form-data; name="..."` header (plus `; filename="..."` and a
 * `Content-Type` header for files), an empty line, the value, CRLF; the body ends with
 * `--boundary--` CRLF. Field names and file names must not hold `"`, CR or LF (throws
 * TypeError). `boundary` defaults to `----voxroute` followed by 24 random hex digits, which
 * cannot occur in the text fields; for files the chance of a clash is 2^-96. The random bytes
 * come from the global Web Crypto (`crypto.getRandomValues`), so that importing voxroute does
 * not load `node:crypto`.
 */
export function encodeMultipart(
  parts: MultipartPart[],
  boundary = `----voxroute${Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString('hex')}`,
): MultipartBody {
  const encoder = new TextEncoder();
  const pieces: Uint8Array[] = [];
  for (const part of parts) {
    checkToken(part.name);
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if ('data' in part) {
      checkToken(part.filename);
      head += `; filename="${part.filename}"\r\nContent-Type: ${part.contentType}\r\n\r\n`;
      pieces.push(encoder.encode(head), part.data, encoder.encode('\r\n'));
    } else {
      pieces.push(encoder.encode(`${head}\r\n\r\n${part.value}\r\n`));
    }
  }
  pieces.push(encoder.encode(`--${boundary}--\r\n`));
  const body = new Uint8Array(pieces.reduce((n, p) => n + p.byteLength, 0));
  let offset = 0;
  for (const piece of pieces) {
    body.set(piece, offset);
    offset += piece.byteLength;
  }
  return { body, contentType: `multipart/form-data; boundary=${boundary}`, boundary };
}

function checkToken(value: string): void {
  if (/["\r\n]/.test(value))
    throw new TypeError('multipart field and file names must not contain ", CR or LF');
}
