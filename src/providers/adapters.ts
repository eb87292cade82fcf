/**
 * Every provider kind's adapter builder, in one module that the router loads with a dynamic
 * `import()` once a config names a provider (see create-adapter.ts): importing voxroute compiles
 * none of them. One module rather than one per kind: the shared code of the kinds would
 * otherwise be cut into many small files, each of which costs the import more than its size.
 */
export { anthropicAdapterFromConfig } from './anthropic/from-config.js';
export { cartesiaAdapterFromConfig } from './cartesia/from-config.js';
export { deepgramAdapterFromConfig } from './deepgram/from-config.js';
export { elevenLabsAdapterFromConfig } from './elevenlabs/from-config.js';
export { openAiAdapterFromConfig } from './openai/from-config.js';
export { sageMakerAdapterFromConfig } from './sagemaker/from-config.js';
