/**
 * Every provider kind's adapter builder, in one module: the router loads it with its other
 * background code (routing/deferred-code.ts, one dynamic `import()` started by `createRouter()`),
 * and createAdapter (create-adapter.ts) builds each adapter from it, so importing voxroute
 * compiles none of them. One module rather than one per kind: the shared code of the kinds would
 * otherwise be cut into many small files, each of which costs the import more than its size.
 */
export { anthropicAdapterFromConfig } from './anthropic/from-config.js';
export { cartesiaAdapterFromConfig } from './cartesia/from-config.js';
export { deepgramAdapterFromConfig } from './deepgram/from-config.js';
export { elevenLabsAdapterFromConfig } from './elevenlabs/from-config.js';
export { openAiAdapterFromConfig } from './openai/from-config.js';
export { sageMakerAdapterFromConfig } from './sagemaker/from-config.js';
