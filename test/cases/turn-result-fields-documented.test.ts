/**
 * Every field a voice turn's result has at run time (TurnResult, its `stages`, each stage's
 * RouteResult and Attempt, the TurnTimeline) is named in docs/voice-turn.md, and TurnResult's
 * in the API reference, so a user never has to read the type declarations to find `stages`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRouter, voiceTurn } from '../../src/index.js';
import { startMockProviders, syntheticAudio } from '../../src/testing/index.js';
import { ONE_PROVIDER_CONFIG } from '../helpers/mock-providers.js';

const page = (name: string) => readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8');
const config = ONE_PROVIDER_CONFIG;

describe('the TurnResult shape is documented', () => {
  it('names every run-time field of a turn result in voice-turn.md, and stages in api.md', async () => {
    const mocks = await startMockProviders(config);
    const router = createRouter(mocks.config);
    try {
      const turn = voiceTurn(router, {
        audio: (async function* () {
          yield syntheticAudio({ durationMs: 200, sampleRate: 16000 });
        })(),
        format: { encoding: 'pcm_s16le', sampleRate: 16000 },
        messages: [],
        model: 'fast',
        voice: 'agent',
      });
      for await (const _ of turn);
      const result = await turn.result;
      expect(Object.keys(result.stages).sort()).toEqual(['chat', 'stt', 'tts']);
      const attempt = result.stages.tts!.attempts[0]!;
      const fields = new Set([
        ...Object.keys(result),
        ...Object.keys(result.stages).map((stage) => `stages.${stage}`),
        ...Object.keys(result.stages.tts!),
        ...Object.keys(attempt),
        'error', // an Attempt's error, present on a failed attempt only
        ...Object.keys(result.timeline),
      ]);
      const doc = page('voice-turn.md');
      expect([...fields].filter((field) => !doc.includes(`\`${field}\``))).toEqual([]);
      expect(page('api.md')).toMatch(/\| `TurnResult` \|[^\n]*`stages: \{ stt, chat\?, tts\? \}`/);
    } finally {
      await router.close();
      await mocks.close();
    }
  });
});
