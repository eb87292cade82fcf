import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

/** Tests that need the Debian engines (espeak-ng, pocketsphinx); run from .ci/run after it installs them. */
export default mergeConfig(base, defineConfig({ test: { include: ['test/engines/**/*.test.ts'], exclude: [] } }));
