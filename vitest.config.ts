import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Test files that change state a later file in the same worker would see, so each runs in a
 * fresh module graph: module mocks (`vi.mock`), stubbed globals and environment variables, the
 * process-wide SageMaker codec registry, and tests of when a module is first loaded. Every other
 * file shares its worker's module graph (`isolate: false`), which takes the suite from about
 * 500 s to about 170 s on 2 cores: importing the module graph once per file was two thirds of
 * the run. A file that fails only after another file ran belongs in this list.
 */
export const isolatedTests = [
  'test/cases/resampler-not-loadable.test.ts',
  'test/cases/resampler-wasm-missing-stderr.test.ts',
  'test/cli/testing-kit.test.ts',
  'test/config/secrets.test.ts',
  'test/fleet/missing-ioredis.test.ts',
  'test/providers/cartesia/msw-websocket.test.ts',
  'test/providers/deepgram/msw-listen.test.ts',
  'test/providers/sagemaker/**/*.test.ts',
  'test/reliability/kind1-secret-redaction.test.ts',
  'test/reliability/kind7-global-websocket-handshake-failure.test.ts',
  'test/testing/tls-without-selfsigned.test.ts',
  'test/testing/ws-missing.test.ts',
  'test/testing/ws-msw.test.ts',
  'test/transport/runtime-fallback.test.ts',
  'test/transport/cancellation.test.ts',
  'test/**/*lazy*.test.ts',
  'test/**/*first-call*.test.ts',
  'test/**/*import*.test.ts',
];

export const alias = {
  'voxroute/ai-sdk': fileURLToPath(new URL('./src/ai-sdk/index.ts', import.meta.url)),
  'voxroute/livekit': fileURLToPath(new URL('./src/livekit/index.ts', import.meta.url)),
  'voxroute/testing': fileURLToPath(new URL('./src/testing/index.ts', import.meta.url)),
  voxroute: fileURLToPath(new URL('./src/index.ts', import.meta.url)),
};

export default defineConfig({
  resolve: { alias },
  test: {
    testTimeout: 20_000,
    pool: 'forks',
    // One worker per CPU (Vitest's default is one fewer: one worker on a 2-core CI machine).
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: ['test/engines/**', ...isolatedTests],
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'isolated', include: isolatedTests, exclude: ['test/engines/**'] },
      },
    ],
  },
});
