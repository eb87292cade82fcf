import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * Tests that need the Debian engines (espeak-ng, pocketsphinx); `.ci/run` runs them after it
 * installs the engines. (mergeConfig would append to the base lists, keeping test/engines excluded.)
 */
export default defineConfig({
  ...base,
  test: { ...base.test, include: ['test/engines/**/*.test.ts'], exclude: [], testTimeout: 120_000 },
});
