import { describe, expect, it } from 'vitest';
import { PROBE_TEST_MS, runProbe } from '../helpers/import-probe.js';

interface AbortProbe {
  firstEvent: unknown;
  loadedDuringAbort: string[];
  stacksFormattedDuringAbort: string[];
  thrown: string | undefined;
}

describe('the abort path (barge-in) does no one-time work', () => {
  it(
    'the first abort in a fresh process loads no module and formats no error stack',
    async () => {
      const result = await runProbe<AbortProbe>('test/internal/fixtures/first-abort-probe.mjs', {
        recordLoads: true,
      });
      expect(result).toEqual({
        firstEvent: { type: 'text-delta', text: 'w0 ' },
        loadedDuringAbort: [],
        stacksFormattedDuringAbort: [],
        thrown: 'AbortError',
      });
    },
    PROBE_TEST_MS,
  );
});
