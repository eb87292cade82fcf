/**
 * Cold start left in the first call: the first sentence segmenter a process builds costs 15 to
 * 20 ms (the runtime loads its sentence break rules), and router.warmup() did not build one, so
 * the first tts() of a multi-sentence text (and the first voice turn's first clause) paid it
 * after warmup. warmup() now builds the default sentence segmenter; the call that follows builds
 * none. Counted by wrapping Intl.Segmenter (this file runs in a fresh module graph: its name
 * matches the isolated `*first-call*` pattern, so no earlier file has built one). The server
 * speaks OpenAI's wire on its own (loopback).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { drain, pcmSignal, recordingSpeechServer, router } from './wire/servers.js';

const Original = Intl.Segmenter;
/** Intl as writable (the lib types declare Segmenter read-only; the runtime property is writable). */
const intl = Intl as { Segmenter: typeof Intl.Segmenter };
afterEach(() => {
  intl.Segmenter = Original;
});

/** Every Intl.Segmenter built from now on, by granularity and locale. */
function countSegmenters(): string[] {
  const built: string[] = [];
  intl.Segmenter = class extends Original {
    constructor(locales?: Intl.LocalesArgument, options?: Intl.SegmenterOptions) {
      super(locales, options);
      built.push(`${options?.granularity ?? 'grapheme'} ${String(locales)}`);
    }
  };
  return built;
}

describe('router.warmup() and the first sentence split', () => {
  it('cold-start-in-first-call: warmup builds the sentence segmenter, the first tts() builds none', async () => {
    const built = countSegmenters();
    const { wire, inputs } = await recordingSpeechServer(pcmSignal(480, 24_000, 3));
    const r = router({
      providers: { a: { kind: 'openai-compatible', baseUrl: `${wire.url}/v1`, tts: { voices: { v: 'x' } } } },
      routes: { tts: { providers: ['a'] } },
    });
    await r.warmup();
    expect(built).toEqual(['sentence undefined']);
    await drain(r.tts({ text: 'Hello there. How are you today?', voice: 'v' }));
    expect(inputs).toEqual(['Hello there.', 'How are you today?']);
    expect(built).toEqual(['sentence undefined']);
    await r.close();
  });
});
