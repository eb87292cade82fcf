const encoder = new TextEncoder();

/**
 * One data-only SSE frame, `data: <payload>\n\n` as UTF-8 bytes. An object payload is sent as
 * one line of JSON; a string as it is (it must hold no line break).
 */
export function sseFrame(payload: unknown): Uint8Array {
  const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return encoder.encode(`data: ${text}\n\n`);
}

/** `data: [DONE]\n\n`, the end-of-stream sentinel of OpenAI and vLLM streams (PROTOCOLS 2.2, 6.1). */
export function sseDone(): Uint8Array {
  return sseFrame('[DONE]');
}

/** A frame whose data is not valid JSON (a cut-off object), for the malformed-frame fault. */
export function sseMalformed(): Uint8Array {
  return sseFrame('{"malformed": tru');
}

/** Base64 of `bytes` (standard alphabet, padded), without Node's Buffer. */
export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.byteLength; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
