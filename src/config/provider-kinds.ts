/**
 * The provider kinds the config accepts, in the order of their schemas in provider-schema.ts
 * (a test keeps the two equal). A plain list, so that code that only needs the names (the
 * cross-field checks, the zod-free fast path of parseConfig) does not load zod.
 */
export const PROVIDER_KINDS = [
  'openai',
  'openai-compatible',
  'anthropic',
  'cartesia',
  'deepgram',
  'elevenlabs',
  'sagemaker',
] as const;
