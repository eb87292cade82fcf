/**
 * A configured key echoed JSON-escaped character by character (`\u0073\u006b...`: an encoder
 * that writes ASCII escapes, a gateway that encodes its upstream's JSON error twice), with the
 * hex digits in either case, or with only some characters escaped: one `JSON.parse` of the
 * message would give the key back, so it is redacted like the key's other encodings. A text
 * without a secret keeps its escapes as they were. The server speaks the wire on its own
 * (node:http on loopback).
 */
import { describe, expect, it } from 'vitest';
import { createErrorRedactor, redactText, redactWhole } from '../../src/errors/redact.js';
import { AllProvidersFailedError, ProviderError } from '../../src/index.js';
import { drain, httpServer, router } from './wire/servers.js';

/** Built from parts so that no key-shaped literal is in the tree. */
const KEY = `${'sk-'}adv16SECRETkeyABCDEFGHIJKLMNOPQRSTUV0123`;

/** `text` with every character as a `\uXXXX` escape, hex digits in lower or upper case. */
function escaped(text: string, upper = false): string {
  return [...text]
    .map((c) => {
      const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
      return `\\u${upper ? hex.toUpperCase() : hex}`;
    })
    .join('');
}

/** Every other character escaped, the rest plain. */
function halfEscaped(text: string): string {
  return [...text].map((c, i) => (i % 2 === 0 ? escaped(c) : c)).join('');
}

describe('redactText: a key echoed as \\uXXXX escapes', () => {
  const forms: Array<[string, string]> = [
    ['every character, lower-case hex', escaped(KEY)],
    ['every character, upper-case hex', escaped(KEY, true)],
    ['mixed-case hex', escaped(KEY.slice(0, 20)) + escaped(KEY.slice(20), true)],
    ['every other character', halfEscaped(KEY)],
    ['the key upper-cased, escaped', escaped(KEY.toUpperCase())],
  ];
  for (const [what, form] of forms)
    it(what, () => {
      // One JSON.parse gives the key back (upper-cased for the last form).
      expect(JSON.parse(`"${form}"`).toLowerCase()).toBe(KEY.toLowerCase());
      expect(redactText(`upstream said: {"key":"${form}"}`, [KEY])).toBe(
        'upstream said: {"key":"[redacted]"}',
      );
      expect(redactWhole(form, [KEY])).toBe('[redacted]');
    });

  it('a cut start of the key, escaped, is redacted as a cut start is', () => {
    expect(redactText(`key "${escaped(KEY.slice(0, 20))}..." refused`, [KEY])).toBe(
      'key "[redacted]..." refused',
    );
  });

  it('a text without a secret keeps its escapes; escapes of quotes, backslashes and controls stay', () => {
    const plain = 'caf\\u00e9 \\u0041\\u0042\\u0043 said \\u0022hi\\u0022 \\u005c \\u000a';
    expect(redactText(plain, [KEY])).toBe(plain);
    const mixed = `\\u0022${escaped(KEY)}\\u0022 and \\u00e9`;
    expect(redactText(mixed, [KEY])).toBe('\\u0022[redacted]\\u0022 and \\u00e9');
  });

  it("the router's redactor: message, provider fields and cause", () => {
    const redact = createErrorRedactor([KEY], ['a']);
    const error = redact(
      new ProviderError(`Provider 'a' answered HTTP 401: ${escaped(KEY)}`, {
        provider: 'a',
        status: 401,
        retryable: false,
        providerCode: escaped(KEY, true),
        providerType: halfEscaped(KEY),
        cause: new Error(`inner ${escaped(KEY)}`),
      }),
    );
    expect(error.message).toBe("Provider 'a' answered HTTP 401: [redacted]");
    expect(error.providerCode).toBe('[redacted]');
    expect(error.providerType).toBe('[redacted]');
    expect((error.cause as Error).message).toBe('inner [redacted]');
    expect(String(error.stack)).not.toContain(escaped(KEY).slice(0, 60));
  });
});

describe('a provider echoing the key \\u-escaped in its 401 body', () => {
  it('the error the caller gets holds no form of the key', async () => {
    const wire = await httpServer((req, res) => {
      req.resume();
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: {
            message: `upstream said: {"key":"${escaped(KEY)}"}`,
            type: halfEscaped(KEY),
            code: escaped(KEY, true),
          },
        }),
      );
    });
    const r = router({
      providers: {
        a: {
          kind: 'openai-compatible',
          baseUrl: `${wire.url}/v1`,
          apiKey: KEY,
          chat: { models: { m: 'x' } },
        },
      },
      routes: { chat: { providers: ['a'] } },
    });
    const { items, error } = await drain(r.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }));
    expect(items).toEqual([]);
    expect(AllProvidersFailedError.isInstance(error)).toBe(true);
    const failed = error as AllProvidersFailedError;
    expect(failed.message).toBe(
      'All providers failed for chat: a: Provider \'a\' answered HTTP 401: upstream said: {"key":"[redacted]"}',
    );
    const cause = failed.attempts[0]!.error as ProviderError;
    expect(cause.status).toBe(401);
    expect(cause.providerType).toBe('[redacted]');
    expect(cause.providerCode).toBe('[redacted]');
    const seen = JSON.stringify([
      failed.message,
      failed.stack,
      cause.message,
      cause.providerType,
      cause.providerCode,
    ]);
    expect(seen).not.toContain('\\\\u0073\\\\u006b');
    expect(seen.toLowerCase()).not.toContain(KEY.toLowerCase());
  });
});
