import { lazy } from '../../internal/lazy.js';
import { lazySchema } from '../../internal/zod.js';
import { anthropicProviderSchema } from './anthropic.js';
import { cartesiaProviderSchema } from './cartesia.js';
import { deepgramProviderSchema } from './deepgram.js';
import { elevenlabsProviderSchema } from './elevenlabs.js';
import { openaiCompatibleProviderSchema, openaiProviderSchema } from './openai.js';
import { sagemakerProviderSchema } from './sagemaker.js';

/**
 * Every provider kind's schema. Adding a kind is one new file in this folder exporting a
 * lazily built strict object schema whose `kind` is a literal and whose capability
 * sections are named `tts`, `stt` and `chat` (the router finds capabilities by those
 * names), plus one entry here.
 */
const providerSchemas = lazy(
  () =>
    [
      openaiProviderSchema(),
      openaiCompatibleProviderSchema(),
      anthropicProviderSchema(),
      cartesiaProviderSchema(),
      deepgramProviderSchema(),
      elevenlabsProviderSchema(),
      sagemakerProviderSchema(),
    ] as const,
);

/** The provider kinds the config accepts, e.g. `['openai', 'openai-compatible']`. */
export const providerKinds = lazy((): readonly string[] =>
  providerSchemas().map((schema) => schema.shape.kind.value),
);

/** Schema of one provider (built on first call): a union discriminated by `kind`. */
export const providerSchema = lazySchema((z) =>
  z
    .discriminatedUnion('kind', [...providerSchemas()], {
      error: `kind must be one of ${providerKinds()
        .map((kind) => JSON.stringify(kind))
        .join(', ')}`,
    })
    .describe('One provider: its wire protocol (kind), endpoint, credentials and per-capability sections.'),
);
