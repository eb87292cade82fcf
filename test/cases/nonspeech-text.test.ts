/**
 * Text with nothing to speak (no letter or digit in any script: punctuation, symbols, emoji,
 * zero-width and format characters, markup) is never sent to a provider: alone it yields no
 * audio, contacts no provider and changes no health; as one sentence of a longer text it is
 * skipped. A provider that answers "no audio" to a sentence that has words is still failing.
 * The servers speak OpenAI's speech wire on their own and answer as real providers do: 200 with
 * an empty body for text without speech.
 */
import { describe, expect, it } from 'vitest';
import { AllProvidersFailedError, ProtocolError, type Router, type RouterConfig } from '../../src/index.js';
import { speakable } from '../../src/text/speakable.js';
import { answerPcm, concat, drain, httpServer, pcmSignal, readBody, router } from './wire/servers.js';

const AUDIO = pcmSignal(2400, 24_000, 4);

/** A speech server that answers text with a letter or digit with AUDIO, and anything else with no audio. */
async function speechServer(inputs: string[], mute = false) {
  return httpServer(async (req, res) => {
    const { input } = JSON.parse((await readBody(req)).toString()) as { input: string };
    inputs.push(input);
    if (mute || !/[\p{L}\p{N}]/u.test(input)) {
      res.writeHead(200, { 'content-type': 'audio/pcm', 'content-length': '0' });
      res.end();
    } else answerPcm(res, AUDIO);
  });
}

const tts = (baseUrl: string) => ({
  kind: 'openai-compatible' as const,
  baseUrl: `${baseUrl}/v1`,
  tts: { voices: { v: 'x' } },
});

async function pair(mute = false) {
  const inputs: string[] = [];
  const a = await speechServer(inputs, mute);
  const b = await speechServer(inputs, mute);
  const config: RouterConfig = {
    providers: { a: tts(a.url), b: tts(b.url) },
    routes: { tts: { providers: ['a', 'b'], firstChunkTimeoutMs: false } },
  };
  const r = router(config);
  const breakers: string[] = [];
  r.on('breaker', (e) => breakers.push(`${e.provider}:${e.from}->${e.to}`));
  return { r, inputs, breakers, hits: () => a.hits + b.hits };
}

async function* tokens(parts: readonly string[]) {
  for (const p of parts) yield p;
}

const NON_SPEECH: ReadonlyArray<readonly string[]> = [
  ['...'],
  ['\u200b'],
  ['\u00a0'],
  ['\ufeff'],
  ['—'],
  ['*', ' '],
  ['```', '\n', '```'],
  ['🙂'],
  ['&'],
  ['- - -\n', '***\n', '> '],
  ['\u2060\u200d', '!?'],
];

async function expectNothingSent(r: Router, text: string | AsyncIterable<string>) {
  const stream = r.tts({ text, voice: 'v' });
  const { items, error } = await drain(stream);
  expect([items.length, error]).toEqual([0, undefined]);
  expect(await stream.result).toMatchObject({ provider: '', attempts: [] });
}

describe('text with nothing to speak', () => {
  it('is not sent, streamed or whole: no audio, no error, no health change', async () => {
    const { r, inputs, breakers, hits } = await pair();
    for (const parts of NON_SPEECH) {
      await expectNothingSent(r, tokens(parts));
      await expectNothingSent(r, parts.join(''));
    }
    expect(hits()).toBe(0);
    expect(inputs).toEqual([]);
    expect(breakers).toEqual([]);
    expect(r.stats().providers).toEqual([]);
  });

  it('skips a sentence of only markup or emoji inside a longer text, whole or streamed', async () => {
    const { r, inputs, breakers } = await pair();
    // Intl.Segmenter makes '```\n', '```\n' and '🙂\n' sentences of their own here.
    const text = 'Hello there!\n```\n```\n🙂\nSee you at 7.';
    for (const source of [text, tokens(['Hello there!\n', '```\n', '```\n', '🙂\n', 'See you at 7.'])]) {
      inputs.length = 0;
      const stream = r.tts({ text: source, voice: 'v' });
      const { items, error } = await drain(stream);
      expect(error).toBeUndefined();
      expect(concat(items.map((c) => c.data)).equals(Buffer.concat([AUDIO, AUDIO]))).toBe(true);
      expect(inputs).toEqual(['Hello there!', 'See you at 7.']);
    }
    expect(breakers).toEqual([]);
  });

  it('counts a digit or a word around a symbol as speech', () => {
    for (const t of ['$5', '7', 'R&D', '٣', 'こんにちは', 'é', '🙂 ok']) expect(speakable(t)).toBe(true);
    for (const t of ['&', '$', '%', '...', '\u200b', '🙂', '```', '—', '\u0301', ''])
      expect(speakable(t)).toBe(false);
  });

  it('still charges a provider that answers no audio for a sentence with words', async () => {
    const { r, inputs, breakers } = await pair(true);
    const stream = r.tts({ text: tokens(['Hello there.']), voice: 'v' });
    const { items, error } = await drain(stream);
    expect(items).toEqual([]);
    expect(AllProvidersFailedError.isInstance(error)).toBe(true);
    const attempts = (error as AllProvidersFailedError).attempts;
    expect(attempts.map((x) => [x.provider, ProtocolError.isInstance(x.error)])).toEqual([
      ['a', true],
      ['b', true],
    ]);
    expect((attempts[0]!.error as Error).message).toBe("Provider 'a' returned no audio");
    expect(inputs).toEqual(['Hello there.', 'Hello there.']);
    expect(breakers).toEqual([]);
    expect(r.stats().providers.map((p) => [p.provider, p.errors])).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
  });
});
