/**
 * A full stop after an abbreviation or an initial ends no sentence, at the start of a reply as
 * anywhere else. `Intl.Segmenter` breaks after "Dr. " when a capital follows, and the first
 * chunk of a reply goes alone however short, so "Dr. Smith will see you now." used to reach
 * the provider as "Dr." and "Smith will see you now." (for a string and for streamed tokens).
 * The servers speak OpenAI's wire on their own (loopback).
 */
import { describe, expect, it } from 'vitest';
import type { RouterConfig } from '../../src/index.js';
import { TtsProgress } from '../../src/routing/tts-progress.js';
import { ClauseSplitter } from '../../src/text/clause-splitter.js';
import { drain, pcmSignal, recordingSpeechServer, router } from './wire/servers.js';

const AUDIO = pcmSignal(480, 24_000, 3);

/** An OpenAI speech server that records each request's input. */
async function speech() {
  const { wire, inputs } = await recordingSpeechServer(AUDIO);
  const config: RouterConfig = {
    providers: { a: { kind: 'openai-compatible', baseUrl: `${wire.url}/v1`, tts: { voices: { v: 'x' } } } },
    routes: { tts: { providers: ['a'], firstChunkTimeoutMs: false } },
  };
  return { inputs, config };
}

async function* tokens(list: readonly string[]): AsyncGenerator<string> {
  for (const t of list) yield t;
}

/** Every sentence of a text given whole, as tts() cuts it. */
async function sentencesOf(text: string): Promise<string[]> {
  const progress = new TtsProgress(text, 'en');
  const out: string[] = [];
  for (let i = 0; ; i++) {
    const s = await progress.sentence(i);
    if (s === undefined) return out;
    out.push(s);
  }
}

/**
 * The chunks of streamed text, one character per token or as words, trimmed as they are sent
 * (where the white space between two chunks goes depends on where the tokens split).
 */
function chunksOf(text: string, split: 'chars' | 'words'): string[] {
  const s = new ClauseSplitter({ locale: 'en' });
  const parts = split === 'chars' ? [...text] : text.split(/(?= )/);
  return [...parts.flatMap((p) => s.push(p)), ...s.end()].map((c) => c.trim());
}

const CASES: ReadonlyArray<readonly [string, readonly string[], readonly string[]]> = [
  // text, sentences of the string, chunks of the streamed text (trimmed)
  [
    'Dr. Smith will see you now. Please wait.',
    ['Dr. Smith will see you now. ', 'Please wait.'],
    ['Dr. Smith will see you now.', 'Please wait.'],
  ],
  ['Mr. Jones is on his way.', ['Mr. Jones is on his way.'], ['Mr. Jones is on his way.']],
  ['J. R. R. Tolkien wrote it.', ['J. R. R. Tolkien wrote it.'], ['J. R. R. Tolkien wrote it.']],
  [
    'Prof. Adams and Mrs. Brown met St. John today. Fine.',
    ['Prof. Adams and Mrs. Brown met St. John today. ', 'Fine.'],
    ['Prof. Adams and Mrs. Brown met St. John today.', 'Fine.'],
  ],
  [
    'Ms. Lee, your table is ready. Thanks.',
    ['Ms. Lee, your table is ready. ', 'Thanks.'],
    ['Ms. Lee,', 'your table is ready.', 'Thanks.'],
  ],
  [
    'Apples, pears etc. Are fine. The U.S. Army came.',
    ['Apples, pears etc. Are fine. ', 'The U.S. Army came.'],
    ['Apples, pears etc. Are fine.', 'The U.S. Army came.'],
  ],
  // Not abbreviations: a number, a word, a line break.
  [
    'It costs 3.5 dollars. It was in 2023. Okay.',
    ['It costs 3.5 dollars. ', 'It was in 2023. ', 'Okay.'],
    ['It costs 3.5 dollars.', 'It was in 2023. Okay.'],
  ],
  ['See Dr.\nSmith is out.', ['See Dr.\n', 'Smith is out.'], ['See Dr.', 'Smith is out.']],
];

describe('a full stop after an abbreviation or initial ends no sentence, also at the start of a reply', () => {
  for (const [text, sentences, chunks] of CASES) {
    it(`cuts ${JSON.stringify(text)} only at sentence ends`, async () => {
      expect(await sentencesOf(text)).toEqual(sentences);
      expect(chunksOf(text, 'words')).toEqual(chunks);
      expect(chunksOf(text, 'chars')).toEqual(chunks);
    });
  }

  it('sends "Dr. Smith" in one request for a string text and for streamed tokens', async () => {
    const { inputs, config } = await speech();
    const r = router(config);
    for (const text of [
      'Dr. Smith will see you now. Please wait.',
      tokens(['Dr', '.', ' Smith', ' will', ' see', ' you', ' now', '.', ' Please', ' wait', '.']),
      tokens(['Written by J', '.', ' R', '.', ' R', '.', ' Tolkien', '.']),
    ]) {
      const { error } = await drain(r.tts({ text, voice: 'v', language: 'en' }));
      expect(error).toBeUndefined();
    }
    expect(inputs).toEqual([
      'Dr. Smith will see you now.',
      'Please wait.',
      'Dr. Smith will see you now.',
      'Please wait.',
      'Written by J. R. R. Tolkien.',
    ]);
  });
});
