/**
 * A long text given whole is segmented as its sentences are asked for, never all at once:
 * `Intl.Segmenter` over a 520 KB text ran out of heap, and 130 KB took seconds before the first
 * audio. The work before the first sentence is bounded by one window of the text, the work
 * over the whole text is linear in its length (counted in characters handed to the segmenter,
 * not timed), a sentence with no end is cut so that no request exceeds what providers take, and
 * a text over the documented limit is a RequestError before any provider is contacted.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestError, type RouterConfig } from '../../src/index.js';
import { TtsProgress } from '../../src/routing/tts-progress.js';
import { MAX_TTS_TEXT_LENGTH, ttsRequestProblem } from '../../src/routing/validate-request.js';
import { MAX_SENTENCE_LENGTH } from '../../src/text/length-cut.js';
import { countSegmenting } from '../helpers/count-segmenting.js';
import { answerPcm, drain, httpServer, pcmSignal, readBody, router } from './wire/servers.js';

afterEach(() => {
  vi.restoreAllMocks();
});

async function allSentences(progress: TtsProgress, from = 0): Promise<string[]> {
  const out: string[] = [];
  for (let i = from; ; i++) {
    const s = await progress.sentence(i);
    if (s === undefined) return out;
    out.push(s);
  }
}

describe('a long text given whole is segmented lazily, in bounded windows', () => {
  it('finds the first sentence of a 99,996-character text after one window, and all of them in linear work', async () => {
    const text = 'Hello world. '.repeat(7692);
    expect(text.length).toBe(99_996);
    const seen = countSegmenting();
    const progress = new TtsProgress(text, 'en');
    expect(await progress.sentence(0)).toBe('Hello world. ');
    expect(seen).toEqual({ calls: 1, chars: 247, longest: 247 });
    const rest = await allSentences(progress, 1);
    expect(rest.length).toBe(7691);
    expect(new Set(rest)).toEqual(new Set(['Hello world. ']));
    // Every character goes to the segmenter about once (a window starts at the first open mark).
    expect(seen.chars).toBeLessThanOrEqual(text.length);
    expect(seen.longest).toBeLessThanOrEqual(260);
    expect(progress.finished).toBe(false);
  });

  it('cuts a sentence with no end at a word boundary, at most MAX_SENTENCE_LENGTH characters', async () => {
    expect(MAX_SENTENCE_LENGTH).toBe(1000);
    const seen = countSegmenting();
    const text = 'word '.repeat(19_000);
    const sentences = await allSentences(new TtsProgress(text, 'en'));
    // Windows of 256 characters: the cut falls at the last white space within the first 1000.
    expect(sentences.slice(0, 2)).toEqual(['word '.repeat(200), 'word '.repeat(200)]);
    expect(Math.max(...sentences.map((s) => s.length))).toBe(MAX_SENTENCE_LENGTH);
    expect(sentences.join('')).toBe(text);
    // No mark that could end a sentence: no segmenter at all.
    expect(seen.calls).toBe(0);
  });

  it('cuts text without spaces (CJK, emoji, one long word) at a grapheme boundary', async () => {
    const cjk = '日本語'.repeat(800);
    const coder = '👩🏽‍💻'; // 7 UTF-16 code units, one grapheme cluster
    const emoji = coder.repeat(300);
    const word = 'x'.repeat(2500);
    for (const [text, first] of [
      [cjk, 1000],
      [emoji, 994],
      [word, 1000],
    ] as const) {
      const sentences = await allSentences(new TtsProgress(text, 'en'));
      expect([sentences[0]!.length, sentences.join('') === text]).toEqual([first, true]);
    }
    const coders = await allSentences(new TtsProgress(emoji, 'en'));
    expect(coders.map((s) => s.length / coder.length)).toEqual([142, 142, 16]);
  });

  it('gives the sentences of the whole text segmented at once, whatever falls at a window edge', async () => {
    const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
    const parts = [
      'Hello there. ',
      'How are you?! ',
      'It was in 2023. ',
      'Costs 3.5 dollars. ',
      'He said "Go." ',
      '(It works.) ',
      'Wait... ',
      'then lower case. ',
      '\n\n\n',
      '     ',
      '好的。',
      'Line one\r\n',
      'Number 42. ',
      '12345. ',
    ];
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 20; round++) {
      let text = '';
      while (text.length < 3000) text += parts[Math.floor(random() * parts.length)]!;
      const expected = [...segmenter.segment(text)].map((s) => s.segment);
      expect(await allSentences(new TtsProgress(text, 'en'))).toEqual(expected);
    }
  });

  it('rejects a string over MAX_TTS_TEXT_LENGTH characters before any provider is contacted', async () => {
    expect(MAX_TTS_TEXT_LENGTH).toBe(100_000);
    expect(ttsRequestProblem({ text: 'a'.repeat(100_000), voice: 'v' })).toBeUndefined();
    let hits = 0;
    const wire = await httpServer(async (req, res) => {
      hits++;
      await readBody(req);
      answerPcm(res, pcmSignal(480, 24_000));
    });
    const config: RouterConfig = {
      providers: { a: { kind: 'openai-compatible', baseUrl: `${wire.url}/v1`, tts: { voices: { v: 'x' } } } },
      routes: { tts: { providers: ['a'] } },
    };
    const { items, error } = await drain(
      router(config).tts({ text: 'Hello world. '.repeat(40_000), voice: 'v' }),
    );
    expect(items).toEqual([]);
    expect(RequestError.isInstance(error)).toBe(true);
    expect((error as RequestError).field).toBe('text');
    expect((error as Error).message).toBe(
      "Invalid request field 'text': 520000 characters, more than the 100000 one call accepts (split the text into several calls)",
    );
    expect(hits).toBe(0);
  });
});
