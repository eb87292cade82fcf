/**
 * Whether an HTTP status is an interim (informational) response that precedes the final one
 * and must be skipped: every 1xx except 101 Switching Protocols, which is the final answer to an
 * upgrade (a WebSocket handshake). Examples: 102 Processing, 103 Early Hints (sent by CDNs and
 * gateways in front of a provider). RFC 9110 section 15.2: a client must be able to parse one or
 * more 1xx responses before the final response, even when it did not expect one. The status,
 * headers and body of the exchange are those of the final response.
 *
 * @param status HTTP status code.
 */
export function isInformationalStatus(status: number): boolean {
  return status >= 100 && status < 200 && status !== 101;
}
