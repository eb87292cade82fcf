/**
 * A cut or masked key echoed by a server: gateways and providers quote the key they refused cut
 * to N characters (`sk-SECRETKEY-1234567...`, `sk-SECRETKEY-1234567*********`), in quotes, or
 * masked in the middle (`sk-abcd****wxyz`), in an HTTP error body or a WebSocket close reason.
 * Every such start of the key (8+ characters, or a masked token showing 8+ characters of the
 * key) is redacted wherever it stands; a start that goes on as another word, a short start and
 * a provider name that starts like the key stay readable. Servers speak the wire on their own
 * (node:http and ws on loopback).
 */
import { describe, expect, it } from 'vitest';
import { createErrorRedactor, redactText } from '../../src/errors/redact.js';
import { AllProvidersFailedError, ProviderError } from '../../src/index.js';
import { drain, httpServer, router, wsServer } from './wire/servers.js';

/** 29 characters; written in two parts so that no key-shaped literal is in the tree. */
const KEY = `${'sk-'}SECRETKEY-1234567890abcdef`;
const CUT = KEY.slice(0, 20);

/** The longest start (8 characters or more) of KEY found in `text`, or 0. */
function leaked(text: string): number {
  for (let n = KEY.length; n >= 8; n--) if (text.includes(KEY.slice(0, n))) return n;
  return 0;
}

describe('redactText: a cut or masked start of a key, wherever it stands', () => {
  const cases: Array<[string, string]> = [
    [
      `Invalid API key ${CUT}... (check your dashboard)`,
      'Invalid API key [redacted]... (check your dashboard)',
    ],
    [
      `Incorrect API key provided: ${CUT}*********. See docs`,
      'Incorrect API key provided: [redacted]. See docs',
    ],
    [`API key "${CUT}" is not valid`, 'API key "[redacted]" is not valid'],
    [`invalid credentials '${CUT}' (DATA-0000)`, "invalid credentials '[redacted]' (DATA-0000)"],
    [`key ${CUT}xxxxxxxxx rejected`, 'key [redacted] rejected'],
    [`key ${CUT}… rejected`, 'key [redacted]… rejected'],
    [`key=${KEY.slice(0, 8)}&user=1`, 'key=[redacted]&user=1'],
    // Masked in the middle: the whole token goes, also when its start is under 8 characters.
    [`key ${KEY.slice(0, 7)}****${KEY.slice(-4)} refused`, 'key [redacted] refused'],
    [`key ${KEY.slice(0, 4)}\u2022\u2022\u2022\u2022${KEY.slice(-4)}.`, 'key [redacted].'],
    [`key ${CUT}***${KEY.slice(-4)}`, 'key [redacted]'],
    // A cut marker as the mask: `sk-S...cdef`, `sk-S…cdef`, also after a longer start.
    [`Invalid key ${KEY.slice(0, 4)}...${KEY.slice(-4)}`, 'Invalid key [redacted]'],
    [`Invalid key ${KEY.slice(0, 7)}...${KEY.slice(-4)} (check)`, 'Invalid key [redacted] (check)'],
    [`key ${KEY.slice(0, 4)}\u2026${KEY.slice(-4)}, rejected`, 'key [redacted], rejected'],
    [`Invalid key ${CUT}...${KEY.slice(-4)}`, 'Invalid key [redacted]'],
  ];
  for (const [input, output] of cases)
    it(`${JSON.stringify(input.replaceAll(KEY.slice(0, 4), '<k>'))}`, () => {
      expect(redactText(input, [KEY])).toBe(output);
    });

  it('a masked key whose end holds base64 or token symbols (`=`, `+`, `/`) is redacted whole', () => {
    for (const key of [
      `${'abcdefghij'}123456789=`,
      `${'AbCdEf+/GhIjKl'}Mn0123456789Zz==`,
      `${'sk-proj-'}abc+def/ghi=jkl`,
    ]) {
      const masked = `${key.slice(0, 7)}****${key.slice(-4)}`;
      expect(redactText(`Incorrect API key provided: ${masked}.`, [key])).toBe(
        'Incorrect API key provided: [redacted].',
      );
      expect(redactText(`key "${masked}" refused`, [key])).toBe('key "[redacted]" refused');
    }
  });

  it('stays: a start under 8 characters, a start that goes on as another word, a mask with a foreign end', () => {
    for (const text of [
      `prefix ${KEY.slice(0, 7)} is the shape`,
      `${KEY.slice(0, 12)}Z is another key`,
      `key ${KEY.slice(0, 6)}****zzzz refused`,
      `key ${KEY.slice(0, 3)}****${KEY.slice(-4)} refused`,
      `key ${KEY.slice(0, 3)}...${KEY.slice(-4)} refused`,
      `key ${KEY.slice(0, 4)}...zzzz refused`,
      `key ${KEY.slice(0, 4)}...${KEY.slice(-3)} refused`,
      'sk- keys start with sk-',
    ])
      expect(redactText(text, [KEY])).toBe(text);
  });

  it('a secret holding / echoed in JSON text with \\/ escapes is redacted whole (createErrorRedactor)', () => {
    const secret = `${'wJalrXUtnFEMI'}/K7MDENG/bPxRfiCYEXAMPLEKEY`;
    const body = `{"msg":"bad secret ${secret.replaceAll('/', '\\/')}"}`;
    const error = createErrorRedactor([secret])(new ProviderError(`HTTP 403: ${body}`, { provider: 'a' }));
    expect(error.message).toBe('HTTP 403: {"msg":"bad secret [redacted]"}');
  });

  it("a provider name that is the start of the key stays in the router's messages; the same start elsewhere goes", () => {
    const key = 'acme-voice-gw-7f3k9q2m5x8p';
    const redact = createErrorRedactor([key], ['acme-voice-gw']);
    const error = redact(
      new ProviderError("Provider 'acme-voice-gw' answered HTTP 401: bad key 'acme-voice-gw-7f3'", {
        provider: 'acme-voice-gw',
      }),
    );
    expect(error.message).toBe("Provider 'acme-voice-gw' answered HTTP 401: bad key '[redacted]'");
    expect(redactText("Provider 'acme-voice-gw' failed", [key])).toBe("Provider '[redacted]' failed");
  });
});

const chatConfig = (baseUrl: string) => ({
  providers: {
    a: { kind: 'openai-compatible' as const, baseUrl, apiKey: KEY, chat: { models: { fast: 'm' } } },
  },
  routes: { chat: { providers: ['a'], strategy: 'priority' as const, firstChunkTimeoutMs: false as const } },
});

describe('a cut or masked key echoed over the wire is never shown', () => {
  const bodies: Array<[string, (key: string) => string, string]> = [
    [
      'cut with ...',
      (k) => `Invalid API key ${k.slice(0, 20)}... (check your dashboard)`,
      'Invalid API key [redacted]... (check your dashboard)',
    ],
    [
      'cut with a mask',
      (k) => `Incorrect API key provided: ${k.slice(0, 20)}*********. Check it.`,
      'Incorrect API key provided: [redacted]. Check it.',
    ],
    ['in quotes', (k) => `API key "${k.slice(0, 20)}" is not valid`, 'API key "[redacted]" is not valid'],
    [
      'masked in the middle',
      (k) => `Incorrect API key provided: ${k.slice(0, 7)}****${k.slice(-4)}.`,
      'Incorrect API key provided: [redacted].',
    ],
  ];
  for (const [what, body, shown] of bodies)
    it(`HTTP 401 JSON error, key ${what}`, async () => {
      const server = await httpServer((req, res) => {
        req.resume();
        const key = String(req.headers.authorization).slice('Bearer '.length);
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: body(key), type: 'invalid_request_error' } }));
      });
      const { error } = await drain(
        router(chatConfig(server.url)).chat({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] }),
      );
      const cause = (
        error instanceof AllProvidersFailedError ? error.attempts[0]!.error : error
      ) as ProviderError;
      expect(cause).toBeInstanceOf(ProviderError);
      expect(cause.message).toBe(`Provider 'a' answered HTTP 401: ${shown}`);
      const all = `${(error as Error).message}${JSON.stringify(error)}${String(cause.stack)}`;
      expect(leaked(all)).toBe(0);
      expect(all).not.toContain(`****${KEY.slice(-4)}`);
    });

  for (const [what, reason, shown] of [
    [
      'cut with ...',
      (k: string) => `invalid credentials: ${k.slice(0, 20)}...`,
      ': invalid credentials: [redacted]...',
    ],
    [
      'in quotes',
      (k: string) => `invalid credentials '${k.slice(0, 20)}' (DATA-0000)`,
      ": invalid credentials '[redacted]' (DATA-0000)",
    ],
  ] as const)
    it(`Deepgram close 1008, key ${what}`, async () => {
      const server = await wsServer((ws, req) => {
        ws.close(1008, reason(String(req.headers.authorization).slice('Token '.length)));
      });
      const r = router({
        providers: { dg: { kind: 'deepgram', baseUrl: server.url, apiKey: KEY, stt: { model: 'nova-3' } } },
        routes: { stt: { providers: ['dg'], strategy: 'priority' } },
      });
      const audio = (async function* () {
        yield new Uint8Array(3200);
      })();
      const { error } = await drain(
        r.stt({ audio, format: { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } }),
      );
      const cause = (
        error instanceof AllProvidersFailedError ? error.attempts[0]!.error : error
      ) as ProviderError;
      expect(cause).toBeInstanceOf(ProviderError);
      expect(cause.status).toBe(1008);
      expect(cause.message).toMatch(/^Provider 'dg' closed the WebSocket with code 1008/);
      expect(cause.message.endsWith(shown)).toBe(true);
      expect(leaked(`${(error as Error).message}${JSON.stringify(error)}`)).toBe(0);
    });
});
