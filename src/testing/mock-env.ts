import type { SecretEnv } from '../config/index.js';
import { checkObject } from '../internal/arg-checks.js';

/**
 * What a variable that is not set reads as in {@link mockEnv}: a value that passes both as a
 * secret and as a URL (`http://127.0.0.1:9/voxroute-mock`; port 9 is the discard service, so
 * a client that was not pointed at a mock fails at once rather than reaching a real provider).
 */
export const MOCK_ENV_FALLBACK = 'http://127.0.0.1:9/voxroute-mock';

/**
 * An environment for `loadConfig(file, { env: mockEnv() })` in tests against the mocks: a
 * config file's `{ env: 'NAME' }` keys and URLs load without the real variables being set (CI
 * has no keys). A variable that is set keeps its value; one that is not reads as
 * {@link MOCK_ENV_FALLBACK}. `startMockProviders` then points every provider at its mock and
 * gives it the mock key, so the placeholders are never used. Reads through to `env` (default
 * `process.env`) at each lookup; never changes it.
 *
 * ```ts
 * const mocks = await startMockProviders(await loadConfig('voxroute.config.yaml', { env: mockEnv() }));
 * ```
 * @throws TypeError naming the argument when `env` is given but is not an object.
 */
export function mockEnv(env: SecretEnv = process.env): SecretEnv {
  checkObject('mockEnv(env?): env', 'an object of environment variables (default process.env)', env);
  return new Proxy(env, {
    get: (target, key) => (typeof key === 'string' && target[key]) || MOCK_ENV_FALLBACK,
    has: () => true,
  });
}
