import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      'voxroute/ai-sdk': fileURLToPath(new URL('./src/ai-sdk/index.ts', import.meta.url)),
      'voxroute/livekit': fileURLToPath(new URL('./src/livekit/index.ts', import.meta.url)),
      'voxroute/testing': fileURLToPath(new URL('./src/testing/index.ts', import.meta.url)),
      voxroute: fileURLToPath(new URL('./src/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/engines/**'],
    testTimeout: 20_000,
    pool: 'forks',
  },
});
