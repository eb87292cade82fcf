import { ProtocolError } from '../errors/index.js';

/**
 * The content coding of a response body that the wire handed over undecoded (`gzip`, `br`,
 * `deflate`, `zstd`, ...; several, comma-separated, as the header lists them), or undefined for
 * none or `identity`. voxroute's default wire (undici's dispatcher) neither asks for a coding
 * (no `Accept-Encoding`) nor decodes one, so such a body's bytes are not what the response's
 * Content-Type says: compressed bytes taken as PCM would play as noise. The fetch wire decodes
 * the codings it knows (`decodedByWire`).
 */
export function undecodedCoding(headers: Record<string, string>, decodedByWire: boolean): string | undefined {
  if (decodedByWire) return undefined;
  const value = headers['content-encoding'];
  if (value === undefined) return undefined;
  const codings = value
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  return codings.length === 0 ? undefined : codings.join(', ');
}

/**
 * The retryable ProtocolError of a successful response whose body is content-encoded
 * (RFC 9110 section 8.4): the call falls back to the next provider instead of passing the
 * encoded bytes on as audio, text or events.
 */
export function encodedBodyError(provider: string, coding: string): ProtocolError {
  return new ProtocolError(
    `Provider '${provider}' sent a ${coding}-encoded body (Content-Encoding), which voxroute neither asks for nor decodes`,
    { provider, retryable: true, partialOutput: false },
  );
}
