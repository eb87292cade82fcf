export type { SecretEnv } from '../config-fields/resolve-secrets.js';
export type { SecretInput } from '../config-fields/secret.js';
export {
  OPENAI_BASE_URL,
  OPENAI_PCM_SAMPLE_RATE,
  type ResolvedOpenAIProviderConfig,
} from '../providers/openai/config.js';
export { CAPABILITIES } from './capability.js';
export { type ConfigFactory, defineConfig } from './define-config.js';
export { configJsonSchema } from './json-schema.js';
export { CONFIG_EXTENSIONS, type LoadConfigOptions, loadConfig } from './load-config.js';
export { type ParseConfigOptions, parseConfig } from './parse-config.js';
export { providerKinds } from './provider-schema.js';
export { isResolvedConfig } from './resolve.js';
export {
  type FirstChunkTimeout,
  type HedgeSetting,
  type MidStreamPolicy,
  ROUTE_DEFAULTS,
  type RouteStrategy,
} from './route.js';
export { routerConfigSchema } from './schema.js';
export type {
  ProviderConfig,
  ResolvedConfig,
  ResolvedProviderConfig,
  ResolvedRouteConfig,
  RouteConfig,
  RouterConfig,
} from './types.js';
