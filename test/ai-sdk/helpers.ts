/**
 * Shared setup of the AI SDK tests: the real `ai` package (loaded only where it can run) over a
 * router whose providers are voxroute's OpenAI-compatible mocks on loopback ports.
 */
import { describe, it } from 'vitest';

const major = Number(process.versions.node.split('.')[0]);

/** `ai` 7 declares engines node >= 22 (and uses APIs of it): its tests run on Node 22 and later. */
export const AI_SDK_RUNS = major >= 22;

/**
 * `describe` where `ai` runs; elsewhere one test that skips with the reason as its note, so a
 * Node 20 run names the reason in its output (the suite's own tests are not even declared).
 */
export function describeAiSdk(title: string, body: () => void): void {
  if (AI_SDK_RUNS) {
    describe(title, body);
    return;
  }
  describe(title, () => {
    it('runs on Node >= 22 only', (ctx) => {
      const reason = `ai 7 needs Node >= 22; this is Node ${process.versions.node}`;
      // The default reporter does not print skip notes; stderr of a test it does print.
      console.warn(`skipped "${title}": ${reason}`);
      ctx.skip(reason);
    });
  });
}

export { ALWAYS_503, twoProviders } from '../helpers/mock-router.js';
