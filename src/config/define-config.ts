import type { RouterConfig } from './types.js';

/**
 * Returns `config` unchanged. Its only job is typing: in `voxroute.config.ts`,
 * `export default defineConfig({ ... })` gets completion and type errors for the config.
 * It validates nothing; loadConfig and parseConfig do.
 */
export function defineConfig(config: RouterConfig): RouterConfig {
  return config;
}
