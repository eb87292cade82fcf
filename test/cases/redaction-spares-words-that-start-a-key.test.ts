/**
 * An ordinary word that is the first segment of an API key is not an echo of the key. With the
 * key `internal-gw-7f3a...`, a provider's "internal error in the upstream model server" lost its
 * first word; with the key `voxroute-mock-...`, every stack frame under
 * `node_modules/voxroute/` read `node_modules/[redacted]/`. A start of a key, or a piece of it,
 * that shows only the key's leading word (letters in one case, up to the first separator, fewer
 * than 16 characters) now stays; a start that runs past it or holds any of the key's random
 * body is redacted as before, and so is every cut or masked echo of real key shapes (OpenAI,
 * Anthropic, ElevenLabs, Deepgram, Cartesia). Servers speak the wire on their own (node:http).
 */
import { describe, expect, it } from 'vitest';
import { createErrorRedactor, redactText } from '../../src/errors/redact.js';
import { AllProvidersFailedError, ProviderError, RequestError } from '../../src/index.js';
import { answerPcm, drain, httpServer, pcmSignal, readBody, router } from './wire/servers.js';

/** Keys written in parts so that no key-shaped literal is in the tree (made up). */
const GATEWAY_KEY = `${'internal-gw-'}7f3a9c1d2e4b`;
const WORD_KEY = `${'voxroute-mock-'}key`;
const UPSTREAM_KEY = `${'upstream-'}4c1f9e2a7b3d5e60`;

const REAL_KEYS: Array<[string, string]> = [
  ['OpenAI project key', `${'sk-'}proj-${'Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56'}`],
  ['Anthropic key', `${'sk-'}ant-api03-${'Xy98Wv76Ut54Sr32Qp10On98Ml76Kj54'}`],
  ['ElevenLabs key', `${'sk_'}${'3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a2c4e6b8d'}`],
  ['Deepgram key', `${'3a9c1e5b2d4f6a8c'}${'0e1b3d5f7a9c2e4b6d8f0a2c'}`],
  ['Cartesia key', `${'sk_car_'}${'Q7w8E9r0T1y2U3i4O5p6'}`],
];

describe('redaction-spares-words-that-start-a-key', () => {
  it('a word that is the first segment of a key stays: in a message, any letter case, a path', () => {
    const cases: Array<[string, string]> = [
      ['internal error in the upstream model server', GATEWAY_KEY],
      ['Internal Server Error', GATEWAY_KEY],
      ['INTERNAL: retry later', GATEWAY_KEY],
      ['upstream connect error or disconnect/reset before headers', UPSTREAM_KEY],
      ['at f (/app/node_modules/voxroute/dist/index.js:10:3)', WORD_KEY],
      ['mic unplugged at /tmp/app/node_modules/voxroute/x.js', WORD_KEY],
      ['see "voxroute" docs; Voxroute 0.1.0', WORD_KEY],
    ];
    for (const [text, key] of cases) expect(redactText(text, [key])).toBe(text);
  });

  it('the key and its echoes are still redacted: whole, a start past the first segment, cut, masked', () => {
    const cases: Array<[string, string, string]> = [
      [`bad key ${GATEWAY_KEY} refused`, GATEWAY_KEY, 'bad key [redacted] refused'],
      ['bad key internal-gw refused', GATEWAY_KEY, 'bad key [redacted] refused'],
      ['bad key internal-gw-7f3a... (check)', GATEWAY_KEY, 'bad key [redacted]... (check)'],
      ['bad key "internal-gw-7f"', GATEWAY_KEY, 'bad key "[redacted]"'],
      ['bad key inte****2e4b.', GATEWAY_KEY, 'bad key [redacted].'],
      // Only the word, then a mask and 4 characters of the key's end: a masked key.
      ['bad key internal****2e4b.', GATEWAY_KEY, 'bad key [redacted].'],
      ['bad key internal...2e4b.', GATEWAY_KEY, 'bad key [redacted].'],
      [`key ${WORD_KEY} refused`, WORD_KEY, 'key [redacted] refused'],
      ['key voxroute-mock… refused', WORD_KEY, 'key [redacted]… refused'],
      ['key upstream-4c1f rejected', UPSTREAM_KEY, 'key [redacted] rejected'],
    ];
    for (const [text, key, redacted] of cases) expect(redactText(text, [key])).toBe(redacted);
  });

  it('a leading word stays only up to 8 letters, before a separator, and only when it is a word', () => {
    const long = `${'verylongleadingword'}-7f3a9c1d`;
    expect(redactText('key verylongleadingwo rejected', [long])).toBe('key [redacted] rejected');
    expect(redactText('key verylongleadin rejected', [long])).toBe('key [redacted] rejected');
    // A key of letters only, or whose first segment is longer than 8 letters: its cut echoes.
    const letters = `${'correcthorse'}batterystaple`;
    expect(redactText('key correcthorse... rejected', [letters])).toBe('key [redacted]... rejected');
    expect(redactText('bad key "correcthorsebat"', [letters])).toBe('bad key "[redacted]"');
    expect(redactText('auth=correcthorseba&x=1', [letters])).toBe('auth=[redacted]&x=1');
    const caps = `${'QWERTYUIOP'}ASDFGHJKLZ`;
    expect(redactText('bad key QWERTYUIOPAS...', [caps])).toBe('bad key [redacted]...');
    const words = `${'correcthorse'}-battery-staple`;
    expect(redactText('key correcthorse... rejected', [words])).toBe('key [redacted]... rejected');
    // Mixed case, or letters that go on with digits: a random body from the first character.
    const mixed = `${'AbCdEfGhIj'}1234567890KlMn`;
    expect(redactText('key AbCdEfGh… rejected', [mixed])).toBe('key [redacted]… rejected');
    const lower = `${'qwxzkfpa'}7r2m9t4v1b6n`;
    expect(redactText('key qwxzkfpa… rejected', [lower])).toBe('key [redacted]… rejected');
  });

  for (const [what, key] of REAL_KEYS)
    it(`${what}: whole, cut, masked to its end, masked in the middle, all redacted`, () => {
      const cases: Array<[string, string]> = [
        [`Incorrect API key provided: ${key}.`, 'Incorrect API key provided: [redacted].'],
        [`Invalid API key ${key.slice(0, 12)}... (check)`, 'Invalid API key [redacted]... (check)'],
        [`bad key ${key.slice(0, 8)}`, 'bad key [redacted]'],
        [`Incorrect API key provided: ${key.slice(0, 6)}***`, 'Incorrect API key provided: [redacted]'],
        [`key ${key.slice(0, 6)}...${key.slice(-4)} refused`, 'key [redacted] refused'],
        [`key ${key.slice(0, 7)}****${key.slice(-4)}.`, 'key [redacted].'],
        [`key ...${key.slice(-12)} refused`, 'key ...[redacted] refused'],
      ];
      for (const [text, redacted] of cases) expect(redactText(text, [key])).toBe(redacted);
      // A short start with a foreign end is another key's mask; 3 characters say nothing.
      for (const text of [`key ${key.slice(0, 6)}***zzzz refused`, `key ${key.slice(0, 3)}*** refused`])
        expect(redactText(text, [key])).toBe(text);
    });

  it("an error's stack frames under node_modules/voxroute keep the package name", () => {
    const error = new ProviderError("Provider 'p' answered HTTP 500: internal error", { provider: 'p' });
    error.stack = [
      "ProviderError: Provider 'p' answered HTTP 500: internal error",
      '    at providerErrorFromStatus (/app/node_modules/voxroute/dist/index.js:1273:10)',
    ].join('\n');
    const redacted = createErrorRedactor([WORD_KEY, GATEWAY_KEY])(error);
    expect(redacted.stack).toBe(
      [
        "ProviderError: Provider 'p' answered HTTP 500: internal error",
        '    at providerErrorFromStatus (/app/node_modules/voxroute/dist/index.js:1273:10)',
      ].join('\n'),
    );
  });
});

describe('redaction-spares-words-that-start-a-key over the wire', () => {
  const chat = (baseUrl: string, apiKey: string) =>
    router({
      providers: { p: { kind: 'openai-compatible', baseUrl, apiKey, chat: { models: { fast: 'm' } } } },
      routes: { chat: { providers: ['p'], strategy: 'priority', firstChunkTimeoutMs: false } },
    });

  it('HTTP 500 "internal error in the upstream model server" with the key internal-gw-...: shown whole', async () => {
    const server = await httpServer((req, res) => {
      req.resume();
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { message: 'internal error in the upstream model server', type: 'server_error' },
        }),
      );
    });
    const { error } = await drain(
      chat(`${server.url}/v1`, GATEWAY_KEY).chat({
        model: 'fast',
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(error).toBeInstanceOf(AllProvidersFailedError);
    const cause = (error as AllProvidersFailedError).attempts[0]!.error as ProviderError;
    expect(cause.message).toBe("Provider 'p' answered HTTP 500: internal error in the upstream model server");
  });

  it('HTTP 401 quoting the key cut after its first segment: redacted', async () => {
    const server = await httpServer((req, res) => {
      req.resume();
      const key = String(req.headers.authorization).slice('Bearer '.length);
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `Invalid key ${key.slice(0, 14)}...`, type: 'auth' } }));
    });
    const { error } = await drain(
      chat(`${server.url}/v1`, GATEWAY_KEY).chat({
        model: 'fast',
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    const cause = (
      error instanceof AllProvidersFailedError ? error.attempts[0]!.error : error
    ) as ProviderError;
    expect(cause.message).toBe("Provider 'p' answered HTTP 401: Invalid key [redacted]...");
  });

  it("a caller's audio error quoting a node_modules/voxroute path keeps it (key voxroute-mock-key)", async () => {
    const wire = await httpServer(async (req, res) => {
      await readBody(req);
      answerPcm(res, pcmSignal(2400, 24_000));
    });
    const r = router({
      providers: {
        p: { kind: 'openai-compatible', baseUrl: `${wire.url}/v1`, apiKey: WORD_KEY, stt: { model: 'w' } },
      },
      routes: { stt: { providers: ['p'] } },
    });
    const thrown = new Error('mic unplugged at /tmp/app/node_modules/voxroute/x.js');
    const audio = (async function* () {
      yield new Uint8Array(320);
      throw thrown;
    })();
    const { error } = await drain(r.stt({ audio, format: { encoding: 'pcm_s16le', sampleRate: 16_000 } }));
    expect(RequestError.isInstance(error)).toBe(true);
    expect((error as RequestError).message).toBe(
      "Invalid request field 'audio': the caller's audio stream threw (Error: mic unplugged at /tmp/app/node_modules/voxroute/x.js)",
    );
    expect((error as RequestError).cause).toBe(thrown);
  });
});
