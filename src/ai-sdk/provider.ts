import type { EmbeddingModelV4, ImageModelV4, ProviderV4 } from '@ai-sdk/provider';
import type { Router } from 'voxroute';
import { RequestError } from 'voxroute';
import { VoxrouteLanguageModel, type VoxrouteModelOptions } from './language-model.js';
import { VoxrouteSpeechModel, type VoxrouteSpeechOptions } from './speech-model.js';
import { VoxrouteTranscriptionModel, type VoxrouteTranscriptionOptions } from './transcription-model.js';

/**
 * voxroute's routes as an AI SDK provider (specification v4). Usable directly
 * (`vox.languageModel('fast')`) or in `createProviderRegistry({ vox })` (`'vox:fast'`).
 */
export interface VoxrouteProvider extends ProviderV4 {
  /** A chat route as a language model; `model` is a logical model name of the router config. */
  languageModel(model: string, options?: VoxrouteModelOptions): VoxrouteLanguageModel;
  /** A TTS route as a speech model; `voice` is the default logical voice (a per-call `voice` overrides it). */
  speechModel(voice: string, options?: VoxrouteSpeechOptions): VoxrouteSpeechModel;
  /** An STT route as a transcription model; `route` (default `'stt'`) is the route to call. */
  transcriptionModel(route?: string, options?: VoxrouteTranscriptionOptions): VoxrouteTranscriptionModel;
  /** voxroute routes no embeddings. @throws RequestError always. */
  embeddingModel(modelId: string): EmbeddingModelV4;
  /** voxroute routes no image models. @throws RequestError always. */
  imageModel(modelId: string): ImageModelV4;
}

/**
 * Wraps a voxroute router as a Vercel AI SDK provider (`ai` 7, provider specification v4,
 * Node >= 22), so `streamText`, `generateText`, `generateSpeech` and `transcribe` run on
 * voxroute's latency routing and fallback. The router stays the caller's: close it yourself.
 * Loads nothing from `ai` at run time (types only).
 *
 * @example
 * ```ts
 * const vox = createVoxroute(router);
 * const { textStream } = streamText({ model: vox.languageModel('fast'), prompt: 'Hi' });
 * const { audio } = await generateSpeech({ model: vox.speechModel('agent'), text: 'Hello.' });
 * const { text } = await transcribe({ model: vox.transcriptionModel(), audio: wavBytes });
 * ```
 */
export function createVoxroute(router: Router): VoxrouteProvider {
  return {
    specificationVersion: 'v4',
    languageModel: (model, options) => new VoxrouteLanguageModel(router, model, options),
    speechModel: (voice, options) => new VoxrouteSpeechModel(router, voice, options),
    transcriptionModel: (route = 'stt', options) => new VoxrouteTranscriptionModel(router, route, options),
    embeddingModel: (modelId) => {
      throw new RequestError('embeddingModel', `'${modelId}': voxroute routes no embedding models`);
    },
    imageModel: (modelId) => {
      throw new RequestError('imageModel', `'${modelId}': voxroute routes no image models`);
    },
  };
}
