import { ProtocolError } from '../errors/index.js';

/**
 * The content coding of a response body that the wire handed over undecoded (`gzip`, `br`,
 * `deflate`, `zstd`, ...; several, comma-separated, as the header lists them), or undefined for
 * none or `identity`. voxroute's default wire (undici's dispatcher) neither asks for a coding
 * (its adapters send `Accept-Encoding: identity`, {@link ACCEPT_IDENTITY}) nor decodes one, so
 * such a body's bytes (a server that ignores the header, or a coding the provider config's
 * headers asked for) are not what the response's
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

/**
 * The request header that asks for a body as it is, with no content coding (RFC 9110 section
 * 12.5.3: a request without Accept-Encoding lets the server pick any coding, and a body that
 * voxroute's default wire would then have to refuse, see {@link undecodedCoding}). Adapters add
 * it where they build a request's headers once (per endpoint, or in a header literal), so no
 * request pays for an extra object: see {@link withAcceptIdentity}.
 */
export const ACCEPT_IDENTITY: Readonly<Record<string, string>> = Object.freeze({
  'accept-encoding': 'identity',
});

/**
 * `headers` with `accept-encoding: identity` added, in place, unless one of its names already is
 * `accept-encoding` (in any letter case: the provider config's `headers` set it, and win).
 * Returns `headers`.
 */
export function withAcceptIdentity(headers: Record<string, string>): Record<string, string> {
  for (const name in headers) if (name.toLowerCase() === 'accept-encoding') return headers;
  headers['accept-encoding'] = 'identity';
  return headers;
}
