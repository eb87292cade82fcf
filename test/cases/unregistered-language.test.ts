/**
 * A `language` that is well-formed BCP 47 but names no registered language (a language's name
 * such as 'english' or 'English', an unassigned code such as 'zz', a private-use or special code)
 * is bad input like 'en_US': a RequestError naming `language` for stt(), tts() and voiceTurn()
 * before any provider is contacted, and a ConfigError at the section's path for a provider's
 * default `language` (by the schema and by the zod-free fast path alike). Every registered
 * language, any ISO 639-1 code and Deepgram's `multi` pass as written. The server speaks
 * OpenAI's wire on its own and counts every request.
 */
import { describe, expect, it } from 'vitest';
import { fastParseConfig } from '../../src/config/fast-parse.js';
import { parseConfig } from '../../src/config/index.js';
import { RequestError, type VoiceTurnRequest, voiceTurn } from '../../src/index.js';
import { isLanguageTag } from '../../src/internal/language-tag.js';
import { configErrorOf } from '../config/helpers.js';
import { answerChat, answerPcm, drain, httpServer, pcmSignal, router } from './wire/servers.js';
import { voiceTurnConfig } from './wire/voice-turn-config.js';

const UNREGISTERED = ['english', 'English', 'zz', 'xx', 'qaa', 'und', 'abc', 'klingon'];
const MESSAGE = "a BCP 47 language tag of a known language, such as 'en' or 'en-US'";

/** Every ISO 639-1 code (the two-letter codes the providers document). */
const ISO_639_1 =
  'aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu'.split(
    ' ',
  );

async function setup() {
  const paths: string[] = [];
  const wire = await httpServer((req, res) => {
    paths.push(req.url ?? '');
    req.resume();
    req.on('end', () => {
      if (req.url?.endsWith('/audio/transcriptions')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"text":"A table for two."}');
      } else if (req.url?.endsWith('/chat/completions')) answerChat(res, 'Sure.');
      else answerPcm(res, pcmSignal(2400, 24_000, 6));
    });
  });
  return { r: router(voiceTurnConfig(wire.url)), paths };
}

async function* mic() {
  yield new Uint8Array(3200);
}
const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000 } as const;

function expectLanguageError(error: unknown, language: string): void {
  expect(RequestError.isInstance(error)).toBe(true);
  expect([(error as RequestError).field, (error as RequestError).message]).toEqual([
    'language',
    `Invalid request field 'language': expected ${MESSAGE}, got ${JSON.stringify(language)}`,
  ]);
}

describe('unregistered language', () => {
  it.each(UNREGISTERED)(
    'request language %j: stt, tts and voiceTurn throw a RequestError on language, no provider contacted',
    async (language) => {
      const { r, paths } = await setup();
      expectLanguageError((await drain(r.stt({ audio: mic(), format: FORMAT, language }))).error, language);
      expectLanguageError((await drain(r.tts({ text: 'Hi.', voice: 'v', language }))).error, language);
      const turn = voiceTurn(r, {
        audio: mic(),
        format: FORMAT,
        messages: [],
        model: 'f',
        voice: 'v',
        language,
      } as VoiceTurnRequest);
      let error: unknown;
      try {
        await turn[Symbol.asyncIterator]().next();
      } catch (e) {
        error = e;
      }
      expectLanguageError(error, language);
      await expect(turn.result).rejects.toBe(error);
      expect(paths).toEqual([]);
    },
  );

  it.each(UNREGISTERED)(
    'config language %j: a ConfigError at each section language, by the fast path too',
    (language) => {
      const providers = {
        oa: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', stt: { model: 'w', language } },
        dg: { kind: 'deepgram', apiKey: 'k', stt: { language } },
        ct: { kind: 'cartesia', apiKey: 'k', tts: { voices: { agent: 'v' }, language }, stt: { language } },
      };
      const error = configErrorOf(() => parseConfig({ providers, routes: {} }));
      expect(error.issues).toEqual(
        [
          ['providers', 'oa', 'stt', 'language'],
          ['providers', 'dg', 'stt', 'language'],
          ['providers', 'ct', 'tts', 'language'],
          ['providers', 'ct', 'stt', 'language'],
        ].map((path) => ({ path, message: `must be ${MESSAGE}` })),
      );
      expect(fastParseConfig({ providers: { oa: providers.oa }, routes: {} })).toBeUndefined();
    },
  );

  it('every ISO 639-1 code, registered three-letter codes, deprecated codes, tags with a script or region and multi pass', () => {
    const good = [
      ...ISO_639_1,
      'yue',
      'fil',
      'haw',
      'ceb',
      'cmn',
      'iw',
      'in',
      'EN-us',
      'en-US',
      'zh-Hant-TW',
      'es-419',
      'sr-Latn-RS',
      'multi',
    ];
    expect(good.filter((tag) => !isLanguageTag(tag))).toEqual([]);
    expect(ISO_639_1.length).toBe(183);
  });

  it('a registered language over the wire: the request passes and reaches the provider', async () => {
    const { r, paths } = await setup();
    const { error } = await drain(r.stt({ audio: mic(), format: FORMAT, language: 'yue' }));
    expect(error).toBeUndefined();
    expect(paths).toEqual(['/v1/audio/transcriptions']);
  });
});
