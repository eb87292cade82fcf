import { describe, expect, it } from 'vitest';
import { PROBE_TEST_MS, runProbe } from '../helpers/import-probe.js';

describe('the first call of a process does no one-time zod work', () => {
  it(
    'streamed chat on OpenAI-compatible and Anthropic servers parses its frames without loading zod',
    async () => {
      const result = await runProbe<Record<string, unknown>>('test/internal/fixtures/first-call-probe.mjs', {
        recordLoads: false,
      });
      const reply = (inputTokens: number, outputTokens: number) => [
        { type: 'text-delta', text: 'hi' },
        { type: 'finish', finishReason: 'stop', usage: { inputTokens, outputTokens } },
      ];
      expect(result).toEqual({
        zodAfterCreateRouter: false,
        openai: reply(3, 1),
        zodAfterOpenAI: false,
        anthropic: reply(3, 2),
        zodAfterAnthropic: false,
      });
    },
    PROBE_TEST_MS,
  );
});
