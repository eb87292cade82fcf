import type { ResolvedProviderConfig } from '../config/index.js';
import { createOpenAiAdapter } from './openai/index.js';
import type { ProviderAdapter } from './types.js';

/** Builds the adapter of one configured provider, by its `kind`. */
export function createAdapter(name: string, config: ResolvedProviderConfig): ProviderAdapter {
  switch (config.kind) {
    case 'openai':
    case 'openai-compatible':
      return createOpenAiAdapter({ name, ...config });
  }
}
