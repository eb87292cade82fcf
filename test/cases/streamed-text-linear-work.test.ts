/**
 * Streamed text (LLM tokens) costs about the same work per token however long the text held
 * without a clause end: the whole pending text used to be segmented again at every token, so
 * 32,000 unpunctuated tokens took about 50 s of CPU before the first audio. Now a token without a
 * character that could end a sentence is not segmented at all, the segmenter reads only from the
 * first mark whose boundary is still open, and text that reaches MAX_CLAUSE_LENGTH characters
 * without a boundary is cut at a word boundary so that its audio starts. Work is counted in
 * characters handed to the segmenter, not timed.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RouterConfig } from '../../src/index.js';
import { ClauseSplitter } from '../../src/text/clause-splitter.js';
import { MAX_CLAUSE_LENGTH } from '../../src/text/length-cut.js';
import { countSegmenting } from '../helpers/count-segmenting.js';
import { answerPcm, drain, httpServer, pcmSignal, readBody, router } from './wire/servers.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Pushes each token; returns every chunk and the token index at which it was released. */
function split(tokens: Iterable<string>) {
  const s = new ClauseSplitter({ locale: 'en' });
  const chunks: string[] = [];
  const at: number[] = [];
  let i = 0;
  for (const t of tokens) {
    for (const c of s.push(t)) {
      chunks.push(c);
      at.push(i);
    }
    i++;
  }
  chunks.push(...s.end());
  return { chunks, at };
}

function* repeat(parts: readonly string[], n: number): Generator<string> {
  for (let i = 0; i < n; i++) yield parts[i % parts.length]!;
}

describe('streamed text: bounded work per token, and a cut at MAX_CLAUSE_LENGTH characters', () => {
  it('cuts 32,000 unpunctuated tokens into 200-character chunks as they come, with no segmenting', () => {
    expect(MAX_CLAUSE_LENGTH).toBe(200);
    const seen = countSegmenting();
    const { chunks, at } = split(repeat(['word '], 32_000));
    expect(chunks.length).toBe(800);
    expect(new Set(chunks)).toEqual(new Set(['word '.repeat(40)]));
    // The first chunk goes with the 40th token, not at the end of the text.
    expect(at.slice(0, 3)).toEqual([39, 79, 119]);
    expect(seen.calls).toBe(0);
  });

  it('segments a bounded number of characters per token when marks never end a sentence', () => {
    const tokens = [
      ' Version',
      ' 3.5',
      ' of',
      ' the',
      ' e.g.',
      ' plan',
      ' (draft)',
      ' "quoted"',
      ' 10:30',
      ' x',
    ];
    const per: number[] = [];
    for (const n of [1000, 8000]) {
      const seen = countSegmenting();
      const { chunks } = split(repeat(tokens, n));
      vi.restoreAllMocks();
      // Each segmenting starts at the first open mark: one token or two, never the held text.
      expect(seen.longest).toBeLessThanOrEqual(16);
      per.push(seen.chars / n);
      expect(chunks.join('')).toBe([...repeat(tokens, n)].join(''));
      expect(chunks[0]).toBe(
        `${' Version 3.5 of the e.g. plan (draft) "quoted" 10:30 x'.repeat(3)} Version 3.5 of the e.g. plan (draft) `,
      );
      expect(Math.max(...chunks.map((c) => c.length))).toBeLessThanOrEqual(MAX_CLAUSE_LENGTH);
    }
    // The same work per token for 1,000 and 8,000 tokens (not growing with the text held).
    expect(per[0]).toBeLessThan(8);
    expect(per[1]).toBeLessThan(8);
  });

  it('cuts text without spaces (CJK, emoji, a very long word) at a grapheme boundary', () => {
    const cjk = split(repeat(['字'], 450)).chunks;
    // The last character that arrived may still take a combining mark: the cut is before it.
    expect(cjk.map((c) => c.length)).toEqual([199, 199, 52]);
    const coder = '👩🏽‍💻'; // 7 UTF-16 code units, one grapheme cluster
    const emoji = split(repeat([coder], 60)).chunks;
    expect(emoji.map((c) => c.length / coder.length)).toEqual([28, 28, 4]);
    expect(split(['x'.repeat(450)]).chunks.map((c) => c.length)).toEqual([200, 200, 50]);
    // A clause mark without spaces (Japanese 、) is preferred to a cut anywhere, within the
    // first 200 characters (29 of these 7-character clauses would be 203).
    const ja = split(repeat(['日本語の文章、'], 60)).chunks;
    expect(ja[0]).toBe('日本語の文章、'.repeat(28));
  });

  it('keeps sentences apart by runs of line breaks or spaces, and cuts a run of spaces like text', () => {
    expect(split(['Hello there.', '\n', '\n', '\n', 'World, again.']).chunks).toEqual([
      'Hello there.',
      '\n',
      '\n',
      '\n',
      'World, again.',
    ]);
    const spaces = split(['Hello there.', ...repeat([' '], 300), 'World.']).chunks;
    expect(spaces).toEqual(['Hello there.', ' '.repeat(200), `${' '.repeat(100)}World.`]);
  });

  it('sends an unpunctuated streamed reply to the provider in 200-character requests as it arrives', async () => {
    const inputs: string[] = [];
    const wire = await httpServer(async (req, res) => {
      inputs.push((JSON.parse((await readBody(req)).toString()) as { input: string }).input);
      answerPcm(res, pcmSignal(480, 24_000));
    });
    const config: RouterConfig = {
      providers: { a: { kind: 'openai-compatible', baseUrl: `${wire.url}/v1`, tts: { voices: { v: 'x' } } } },
      routes: { tts: { providers: ['a'], firstChunkTimeoutMs: false } },
    };
    async function* llm() {
      yield* repeat([' and', ' then', ' we'], 250);
    }
    const { error } = await drain(router(config).tts({ text: llm(), voice: 'v', language: 'en' }));
    expect(error).toBeUndefined();
    // Cut at the last white space once 200 characters have arrived (tokens carry theirs in front).
    const x = `${'and then we '.repeat(16)}and`;
    const y = `then we${' and then we'.repeat(16)}`;
    expect(inputs).toEqual([x, y, x, y, x, 'then we and']);
  });
});
