import { lazy } from '../internal/lazy.js';
import { lazySchema } from '../internal/zod.js';
import { anthropicProviderSchema } from '../providers/anthropic/config.js';
import { cartesiaProviderSchema } from '../providers/cartesia/config.js';
import { deepgramProviderSchema } from '../providers/deepgram/config.js';
import { elevenlabsProviderSchema } from '../providers/elevenlabs/config.js';
import { openaiCompatibleProviderSchema, openaiProviderSchema } from '../providers/openai/config.js';
import { sagemakerProviderSchema } from '../providers/sagemaker/config.js';

/**
 * Every provider kind's schema. Each provider folder owns its config section in
 * `src/providers/<kind>/config.ts`: a lazily built strict object schema whose `kind` is a
 * literal and whose capability sections are named `tts`, `stt` and `chat` (the router finds
 * capabilities by those names), its defaults and its resolved type; `from-config.ts` next to
 * it turns the resolved section into adapter options. Adding a kind is that folder, one entry
 * here, one case in src/providers/create-adapter.ts and its type name in
 * scripts/config-types.mjs (then run it: it writes the config types users write). Config
 * imports providers, never the reverse.
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
