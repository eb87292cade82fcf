/**
 * The `detail.status` the ElevenLabs mock puts in an error body for an HTTP status (the codes
 * ElevenLabs uses: `invalid_api_key`, `quota_exceeded`, `voice_not_found`,
 * `too_many_concurrent_requests`, `system_busy`, ...; PROTOCOLS.md 4.2, EL-issues).
 */
export function errorStatusCode(status: number): string {
  switch (status) {
    case 400:
      return 'invalid_request';
    case 401:
      return 'invalid_api_key';
    case 402:
      return 'payment_required';
    case 403:
      return 'quota_exceeded';
    case 404:
      return 'voice_not_found';
    case 422:
      return 'validation_error';
    case 429:
      return 'too_many_concurrent_requests';
    case 503:
      return 'system_busy';
    default:
      return status >= 500 ? 'internal_server_error' : 'invalid_request';
  }
}

/**
 * ElevenLabs' HTTP error body: `{"detail":{"status":"<code>","message":"..."}}` (ElevenLabs' API reference).
 *
 * @example
 * ```ts
 * elevenLabsErrorBody(401, 'Invalid API key'); // { detail: { status: 'invalid_api_key', message: 'Invalid API key' } }
 * ```
 */
export function elevenLabsErrorBody(
  status: number,
  message: string,
  code = errorStatusCode(status),
): unknown {
  return { detail: { status: code, message } };
}

/**
 * ElevenLabs' validation error body (FastAPI, HTTP 422): `{"detail":[{"loc","msg","type"}]}`
 * (elevenlabs-js `HttpValidationError`).
 */
export function elevenLabsValidationErrorBody(
  loc: (string | number)[],
  msg: string,
  type = 'value_error',
): unknown {
  return { detail: [{ loc, msg, type }] };
}

/**
 * An error message of the stream-input WebSocket, as ElevenLabs sends it before closing:
 * `{"message","error","code"}` (e.g. `error: 'input_timeout_exceeded', code: 1008`; quoted in
 * livekit/agents#218 and elevenlabs-docs#426; PROTOCOLS.md 4.3 marks the full shape UNCONFIRMED).
 */
export interface StreamInputErrorMessage {
  message: string;
  error: string;
  code: number;
}

/** The mock's message for the inactivity close, with the window in seconds. */
export function inactivityMessage(seconds: number): string {
  return `No new text input within ${seconds} seconds: stream-input closed by the mock server (send " " to keep it open, "" to end).`;
}

/** A close reason of at most 123 bytes (RFC 6455 §5.5), cut at a character boundary. */
export function closeReason(text: string): string {
  const bytes = new TextEncoder().encode(text);
  if (bytes.byteLength <= 123) return text;
  return new TextDecoder().decode(bytes.subarray(0, 123)).replace(/\uFFFD+$/, '');
}
