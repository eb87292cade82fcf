/**
 * A server may echo a request's key encoded: JSON-escaped (`/` as `\/`, as PHP and some Java
 * encoders write it), URL-encoded (`%2F`), base64 (a `Basic` header's `user:key`, or the key
 * inside a longer base64 value). The router's redactor knew every form; the transport's own
 * redaction (every message it builds: HTTP status errors, network errors, WebSocket failures and
 * close reasons, SageMaker messages) knew the literal header values only. Both now use one
 * list of forms (`secretForms` in errors/redact.ts). The server here speaks HTTP on its own and
 * answers 401 with a JSON body of a shape no parser knows, so its text is shown as an excerpt.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/errors/index.js';
import { createHttpTransport, redactSecrets } from '../../src/transport/index.js';
import { rejectionOf } from '../helpers/index.js';
import { type LoopbackServer, startLoopbackServer } from '../helpers/loopback.js';

/** A key with `/` and `+`, as AWS secret keys and base64 tokens have. */
const KEY = 'sk/live+Q9x/7kP2mW';
const JSON_ESCAPED = KEY.replaceAll('/', '\\/');
const URL_ENCODED = encodeURIComponent(KEY);
const BASIC = Buffer.from(`user:${KEY}`).toString('base64');
const BASE64_INSIDE = Buffer.from(`{"k":"${KEY}"}`).toString('base64');

let server: LoopbackServer;
beforeAll(async () => {
  server = await startLoopbackServer((_request, res) => {
    // Written by hand: JSON.stringify does not escape `/`.
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(
      `{"errors":[{"reason":"bad key ${JSON_ESCAPED}","query":"k=${URL_ENCODED}","basic":"${BASIC}","blob":"${BASE64_INSIDE}"}]}`,
    );
  });
});
afterAll(() => server.close());

describe('a key echoed encoded is redacted by the transport', () => {
  it('an HTTP 401 body echoing the key JSON-escaped, URL-encoded and base64: none of it in the error', async () => {
    const transport = createHttpTransport();
    try {
      const error = await rejectionOf(
        transport.request({
          provider: 'gpu',
          method: 'POST',
          url: `${server.origin}/v1/audio/speech`,
          // The key reaches the transport only inside the Basic header (base64 of `user:key`).
          headers: { authorization: `Basic ${BASIC}` },
          body: '{}',
        }),
      );
      expect(ProviderError.isInstance(error)).toBe(true);
      expect((error as Error).message).toBe(
        `Provider 'gpu' answered HTTP 401: {"errors":[{"reason":"bad key [redacted]","query":"k=[redacted]","basic":"[redacted]","blob":"eyJrIjoi[redacted]In0="}]}`,
      );
    } finally {
      await transport.close();
    }
  });

  it('redactSecrets (the one redaction of every transport message) knows every form', () => {
    const headers = { authorization: `Bearer ${KEY}` };
    expect(
      [
        KEY,
        JSON_ESCAPED,
        URL_ENCODED,
        Buffer.from(KEY).toString('base64'),
        Buffer.from(KEY).toString('base64url'),
      ].map((form) => redactSecrets(`echo ${form} end`, headers)),
    ).toEqual(Array(5).fill('echo [redacted] end'));
    expect(redactSecrets(`echo ${BASIC} and user:${KEY}`, { authorization: `Basic ${BASIC}` })).toBe(
      'echo [redacted] and [redacted]',
    );
  });
});
