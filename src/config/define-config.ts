import type { SecretEnv } from '../config-fields/resolve-secrets.js';
import type { RouterConfig } from './types.js';

/**
 * A config written as a function of the environment, the default export of a
 * `voxroute.config.ts`/`.js`: loadConfig calls it with `{ env }`, the `env` given to loadConfig
 * (default `process.env`), so values computed from the environment (a region, a list of
 * endpoints) follow that `env` as `{ env: 'NAME' }` secrets do. It may be async.
 *
 * @example
 * ```ts
 * export default (({ env }) => ({
 *   providers: { gpu: { kind: 'openai-compatible', baseUrl: env.GPU_URL ?? 'http://127.0.0.1:8000/v1' } },
 *   routes: {},
 * })) satisfies ConfigFactory;
 * ```
 */
export type ConfigFactory = (context: { env: SecretEnv }) => RouterConfig | Promise<RouterConfig>;

/**
 * Returns `config` unchanged. Its only job is typing: in `voxroute.config.ts`,
 * `export default defineConfig({ ... })` gets completion and type errors for the config.
 * It validates nothing; loadConfig and parseConfig do.
 */
export function defineConfig(config: RouterConfig): RouterConfig {
  return config;
}
