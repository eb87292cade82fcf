/**
 * voxroute/ai-sdk: voxroute routes as Vercel AI SDK models (`ai` 7, provider specification v4;
 * `ai` 7 needs Node >= 22). See docs/ai-sdk.md.
 */

export { RequestError } from 'voxroute';
export { VoxrouteLanguageModel, type VoxrouteModelOptions } from './language-model.js';
export { createVoxroute, type VoxrouteProvider } from './provider.js';
export { DEFAULT_SPEECH_FORMAT, VoxrouteSpeechModel, type VoxrouteSpeechOptions } from './speech-model.js';
export { VoxrouteTranscriptionModel, type VoxrouteTranscriptionOptions } from './transcription-model.js';
