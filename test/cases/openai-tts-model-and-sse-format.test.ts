/**
 * Kind `openai`'s `tts` section and OpenAI's `/audio/speech` request (PROTOCOLS.md 2.3, where
 * `model` is a required field):
 * - with no `tts.model`, kind `openai` sends `model: "gpt-4o-mini-tts"` (the config's default,
 *   as Cartesia's and ElevenLabs' `tts.model` default; the adapter made directly does the same:
 *   test/providers/openai/speech.test.ts),
 *   while kind `openai-compatible` still sends no `model` (Kokoro-FastAPI needs none);
 * - `responseFormat: "wav"` with `streamFormat: "sse"` was dropped without a word (SSE mode
 *   always asks for `pcm`): now a ConfigError at `tts.responseFormat` for both kinds, by the
 *   schema and the zod-free fast path alike, before any request.
 * The speech server speaks OpenAI's wire on its own and records each JSON body.
 */
import { describe, expect, it } from 'vitest';
import { fastParseConfig } from '../../src/config/fast-parse.js';
import { parseConfig } from '../../src/config/index.js';
import { createRouter, type RouterConfig } from '../../src/index.js';
import { configErrorOf } from '../config/helpers.js';
import { answerPcm, drain, httpServer, pcmSignal, readBody, router } from './wire/servers.js';

const WAV_MESSAGE =
  '"wav" is not used with streamFormat "sse": SSE audio deltas are always asked for as "pcm" (raw PCM s16le); leave responseFormat out, or use streamFormat "audio" for WAV';

async function speechServer() {
  const bodies: Record<string, unknown>[] = [];
  const audio = pcmSignal(2400, 24_000);
  const wire = await httpServer(async (req, res) => {
    bodies.push(JSON.parse((await readBody(req)).toString()) as Record<string, unknown>);
    answerPcm(res, audio);
  });
  return { wire, bodies, audio };
}

function config(
  kind: 'openai' | 'openai-compatible',
  baseUrl: string,
  tts: Record<string, unknown>,
): RouterConfig {
  return {
    providers: { oa: { kind, baseUrl, apiKey: 'sk-test', tts: { voices: { agent: 'alloy' }, ...tts } } },
    routes: { tts: { providers: ['oa'] } },
  } as RouterConfig;
}

describe('kind openai: default tts.model', () => {
  it('no tts.model: both parse paths resolve "gpt-4o-mini-tts", and the request body carries it', async () => {
    const { wire, bodies, audio } = await speechServer();
    const input = config('openai', `${wire.url}/v1`, {});
    expect((parseConfig(input).providers.oa as { tts: { model: string } }).tts.model).toBe('gpt-4o-mini-tts');
    expect(fastParseConfig(input)?.providers.oa).toEqual(parseConfig(input).providers.oa);
    const { items, error } = await drain(router(input).tts({ text: 'Hi.', voice: 'agent' }));
    expect(error).toBeUndefined();
    expect(items.reduce((n, c) => n + c.data.byteLength, 0)).toBe(audio.byteLength);
    expect(bodies).toEqual([
      { model: 'gpt-4o-mini-tts', input: 'Hi.', voice: 'alloy', response_format: 'pcm' },
    ]);
  });

  it('a configured tts.model is sent as written', async () => {
    const { wire, bodies } = await speechServer();
    await drain(
      router(config('openai', `${wire.url}/v1`, { model: 'tts-1' })).tts({ text: 'Hi.', voice: 'agent' }),
    );
    expect(bodies.map((b) => b.model)).toEqual(['tts-1']);
  });

  it('kind openai-compatible with no tts.model: no default, and no model field on the wire', async () => {
    const { wire, bodies } = await speechServer();
    const input = config('openai-compatible', `${wire.url}/v1`, {});
    expect(parseConfig(input).providers.oa).not.toHaveProperty('tts.model');
    expect(fastParseConfig(input)?.providers.oa).toEqual(parseConfig(input).providers.oa);
    const { error } = await drain(router(input).tts({ text: 'Hi.', voice: 'agent' }));
    expect(error).toBeUndefined();
    expect(bodies).toEqual([{ input: 'Hi.', voice: 'alloy', response_format: 'pcm' }]);
  });
});

describe('tts.responseFormat "wav" with streamFormat "sse"', () => {
  it.each(['openai', 'openai-compatible'] as const)(
    'kind %s: ConfigError at providers.oa.tts.responseFormat from parseConfig and createRouter; the fast path leaves it to the schema; no request sent',
    async (kind) => {
      const { wire } = await speechServer();
      const input = config(kind, `${wire.url}/v1`, { responseFormat: 'wav', streamFormat: 'sse' });
      expect(fastParseConfig(input)).toBeUndefined();
      for (const run of [() => parseConfig(input), () => createRouter(input)]) {
        expect(configErrorOf(run).issues).toEqual([
          { path: ['providers', 'oa', 'tts', 'responseFormat'], message: WAV_MESSAGE },
        ]);
      }
      expect(wire.hits).toBe(0);
    },
  );

  it('"wav" with "audio", and "pcm" or no responseFormat with "sse", are accepted by both paths alike', () => {
    for (const kind of ['openai', 'openai-compatible'] as const) {
      for (const tts of [
        { responseFormat: 'wav', streamFormat: 'audio' },
        { responseFormat: 'pcm', streamFormat: 'sse' },
        { streamFormat: 'sse' },
      ]) {
        const input = config(kind, 'http://127.0.0.1:9/v1', tts);
        expect(fastParseConfig(input)?.providers.oa).toEqual(parseConfig(input).providers.oa);
      }
    }
  });
});
