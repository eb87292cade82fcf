/**
 * voxroute/livekit: voxroute's routes as a LiveKit agents-js plugin (`@livekit/agents` 1.x with
 * `@livekit/rtc-node` ^0.13, optional peer dependencies: the plugin extends the app's own copy).
 * See docs/livekit.md.
 *
 * @example
 * ```ts
 * import * as voxroute from 'voxroute/livekit';
 * new voice.AgentSession({
 *   stt: new voxroute.STT(router),
 *   llm: new voxroute.LLM(router, { model: 'fast' }),
 *   tts: new voxroute.TTS(router, { voice: 'agent', sampleRate: 24000 }),
 * });
 * ```
 */

export { DEFAULT_ENDPOINTING, type EndpointingOptions } from './endpointer.js';
export { toAPIError } from './errors.js';
export { LLM, type LLMOptions } from './llm.js';
export { STT, type STTOptions } from './stt.js';
export { TTS, type TTSOptions } from './tts.js';
