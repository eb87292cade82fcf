/**
 * A provider section's `language` (sent to the provider when a request gives none) is checked
 * by the same rule as a request's `language`: a BCP 47 tag, else a ConfigError at its path
 * before any provider is contacted (a request's bad value is a RequestError on `language`).
 */
import { describe, expect, it } from 'vitest';
import { fastParseConfig } from '../../src/config/fast-parse.js';
import { parseConfig } from '../../src/config/index.js';
import { createRouter, RequestError } from '../../src/index.js';
import { drain, httpServer, multipart, readBody, router } from '../cases/wire/servers.js';
import { configErrorOf, type Loose } from './helpers.js';

/** One provider of each kind with a language field, its section holding `language`. */
function providers(language: unknown): Record<string, Loose> {
  return {
    oa: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', stt: { model: 'w', language } },
    dg: { kind: 'deepgram', apiKey: 'k', stt: { language } },
    ct: { kind: 'cartesia', apiKey: 'k', tts: { voices: { agent: 'v' }, language }, stt: { language } },
    sm: { kind: 'sagemaker', region: 'us-east-1', endpointName: 'e', stt: { payload: 'wav', language } },
  };
}

const PATHS = [
  ['providers', 'oa', 'stt', 'language'],
  ['providers', 'dg', 'stt', 'language'],
  ['providers', 'ct', 'tts', 'language'],
  ['providers', 'ct', 'stt', 'language'],
  ['providers', 'sm', 'stt', 'language'],
];

describe('provider config language', () => {
  it.each(['english!!', '../../x', '', 'en_US', ' en', 'en\n', 42])(
    '%j is a ConfigError at every section language, never quoted',
    (bad) => {
      const error = configErrorOf(() => parseConfig({ providers: providers(bad), routes: {} }));
      const message = "must be a BCP 47 language tag of a known language, such as 'en' or 'en-US'";
      const expected = typeof bad === 'string' ? message : 'expected a string, got a number';
      expect(error.issues).toEqual(PATHS.map((path) => ({ path, message: expected })));
      if (typeof bad === 'string' && bad.length > 2) expect(error.message).not.toContain(bad);
    },
  );

  it.each(['en', 'en-US', 'zh-Hant-TW', 'pt-BR'])('%j is accepted as written', (good) => {
    const config = parseConfig({ providers: providers(good), routes: {} });
    expect((config.providers.oa as Loose).stt.language).toBe(good);
    expect((config.providers.dg as Loose).stt.language).toBe(good);
    expect((config.providers.ct as Loose).tts.language).toBe(good);
    expect((config.providers.sm as Loose).stt.language).toBe(good);
  });

  it.each(['multi', 'MULTI', 'multi-US'])(
    "Deepgram's %j: accepted by kinds deepgram and sagemaker as written, a ConfigError naming them at the other kinds' language",
    (multi) => {
      const message =
        '"multi" (multilingual code-switching) is Deepgram\'s value, taken only by kinds "deepgram" and "sagemaker": set one language, or leave language out';
      const error = configErrorOf(() => parseConfig({ providers: providers(multi), routes: {} }));
      expect(error.issues).toEqual([
        { path: ['providers', 'oa', 'stt', 'language'], message },
        { path: ['providers', 'ct', 'tts', 'language'], message },
        { path: ['providers', 'ct', 'stt', 'language'], message },
      ]);
      const { dg, sm } = providers(multi);
      const config = parseConfig({ providers: { dg, sm }, routes: {} });
      expect((config.providers.dg as Loose).stt.language).toBe(multi);
      expect((config.providers.sm as Loose).stt.language).toBe(multi);
      const openai = { kind: 'openai', apiKey: 'k', stt: { model: 'whisper-1', language: multi } };
      const input = { providers: { oa: providers(multi).oa, op: openai }, routes: {} };
      expect(fastParseConfig(input)).toBeUndefined();
      expect(configErrorOf(() => parseConfig(input)).issues).toEqual([
        { path: ['providers', 'oa', 'stt', 'language'], message },
        { path: ['providers', 'op', 'stt', 'language'], message },
      ]);
    },
  );

  it('the zod-free fast path leaves a bad language to the schema and vouches for a good one', () => {
    const config = (language: string) => ({
      providers: { oa: { kind: 'openai-compatible', baseUrl: 'http://h/v1', stt: { model: 'w', language } } },
      routes: {},
    });
    expect(fastParseConfig(config('english!!'))).toBeUndefined();
    expect(fastParseConfig(config('en-US'))).toMatchObject({
      providers: { oa: { stt: { language: 'en-US' } } },
    });
  });

  it('over loopback: a bad config language fails createRouter, a good one reaches the form (its ISO-639-1 part), a bad request language is a RequestError', async () => {
    const languages: string[] = [];
    const server = await httpServer(async (req, res) => {
      const form = multipart(req.headers['content-type'], await readBody(req));
      languages.push(form.get('language')?.toString('latin1') ?? '(none)');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"text":"hello"}');
    });
    const config = (language: string) => ({
      providers: {
        a: {
          kind: 'openai-compatible' as const,
          baseUrl: `${server.url}/v1`,
          stt: { model: 'w', streaming: false, language },
        },
      },
      routes: { stt: { providers: ['a'] } },
    });
    const bad = configErrorOf(() => createRouter(config('english!!')));
    expect(bad.issues.map((i) => i.path.join('.'))).toEqual(['providers.a.stt.language']);
    async function* audio() {
      yield new Uint8Array(3200);
    }
    const format = { encoding: 'pcm_s16le', sampleRate: 16_000 } as const;
    const r = router(config('en-US'));
    const { error: badRequest } = await drain(r.stt({ audio: audio(), format, language: 'english!!' }));
    expect(RequestError.isInstance(badRequest)).toBe(true);
    expect((badRequest as RequestError).field).toBe('language');
    expect(server.hits).toBe(0);
    const { error } = await drain(r.stt({ audio: audio(), format }));
    expect(error).toBeUndefined();
    // OpenAI's form takes ISO-639-1: the adapter sends the tag's primary subtag.
    expect(languages).toEqual(['en']);
  });
});
