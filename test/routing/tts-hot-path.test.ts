import { describe, expect, it, vi } from 'vitest';
import type { ProviderAudio } from '../../src/providers/types.js';
import { oneSentence, TtsProgress } from '../../src/routing/tts-progress.js';
import { toCallerAudio } from '../../src/routing/tts-stream.js';
import { SentenceSplitter } from '../../src/text/sentence-splitter.js';
import type { AudioFormat } from '../../src/types/audio.js';

function splitAll(text: string): string[] {
  const s = new SentenceSplitter();
  return [...s.push(text), ...s.end()];
}

async function sentences(progress: TtsProgress): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; ; i++) {
    const s = await progress.sentence(i);
    if (s === undefined) return out;
    out.push(s);
  }
}

describe('TtsProgress without a segmenter for one sentence', () => {
  it.each([
    ['Hello world', true],
    ['Hello, world. ', true],
    ["It's fine, isn\u2019t it?!", true],
    ['Grüße aus Köln 42', true],
    ['   ', true],
    ['', true],
    ['Hi. There', false],
    ['Dr. Smith', false],
    ['line\nbreak', false],
    ['3.5 kg', false],
  ])('oneSentence(%j) is %s', (text, expected) => {
    expect(oneSentence(text)).toBe(expected);
  });

  it('every code point the fast path admits leaves the segmenter with one sentence', () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' });
    const wrong: number[] = [];
    for (let cp = 0; cp < 0x30000; cp++) {
      if (cp >= 0xd800 && cp < 0xe000) continue;
      const c = String.fromCodePoint(cp);
      const text = `Ab${c}cd ef${c} gh${c}.! `;
      if (oneSentence(text) && [...segmenter.segment(text)].length !== 1) wrong.push(cp);
    }
    expect(wrong).toEqual([]);
  });

  it.each(['Hello world', 'Hello, world! ', '  ', '', 'Hi. There. Bye', 'Dr. Smith arrived.'])(
    'gives the same sentences as the splitter for %j',
    async (text) => {
      expect(await sentences(new TtsProgress(text))).toEqual(splitAll(text));
    },
  );

  it('segments a short text of several sentences once, and a text with no mark not at all', async () => {
    const segment = vi.spyOn(Intl.Segmenter.prototype, 'segment');
    try {
      expect(await sentences(new TtsProgress('Hello there. How are you?!', 'en'))).toEqual([
        'Hello there. ',
        'How are you?!',
      ]);
      expect(segment).toHaveBeenCalledTimes(1);
      expect(await sentences(new TtsProgress('word '.repeat(300), 'en'))).toEqual([
        'word '.repeat(200),
        'word '.repeat(100),
      ]);
      expect(segment).toHaveBeenCalledTimes(1);
    } finally {
      segment.mockRestore();
    }
  });

  it('says a white-space-only text has no speech and a word has', async () => {
    expect(await new TtsProgress('   ').hasSpeech()).toBe(false);
    expect(await new TtsProgress('Hi').hasSpeech()).toBe(true);
  });
});

const PCM24: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 };

async function* audio(...chunks: number[][]): AsyncGenerator<ProviderAudio> {
  for (const c of chunks) yield { data: Uint8Array.from(c), format: PCM24 };
}

describe('toCallerAudio when formats match', () => {
  it('passes whole samples through as they are, re-framing a split sample', async () => {
    const out: number[][] = [];
    for await (const chunk of toCallerAudio(audio([1, 2, 3], [4, 5, 6]), PCM24, 'p')) {
      expect(chunk.format).toBe(PCM24);
      out.push([...chunk.data]);
    }
    expect(out).toEqual([
      [1, 2],
      [3, 4, 5, 6],
    ]);
  });

  it('returns the bytes of an aligned chunk unchanged', async () => {
    const data = Uint8Array.from([9, 8, 7, 6]);
    async function* one(): AsyncGenerator<ProviderAudio> {
      yield { data, format: PCM24 };
    }
    const out = [];
    for await (const chunk of toCallerAudio(one(), PCM24, 'p')) out.push(chunk.data);
    expect(out).toHaveLength(1);
    expect([...out[0]!]).toEqual([9, 8, 7, 6]);
  });
});
