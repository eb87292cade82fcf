import { defineConfig } from 'vitest/config';
import { alias } from './vitest.config.js';

/**
 * Tests that need the Debian engines (espeak-ng, pocketsphinx); `.ci/run` runs them after it
 * installs the engines. Each file runs in a fresh module graph.
 */
export default defineConfig({
  resolve: { alias },
  test: { include: ['test/engines/**/*.test.ts'], testTimeout: 120_000, pool: 'forks' },
});
