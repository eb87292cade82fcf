import type { RouterConfig } from '../../../src/index.js';

/**
 * A config for a voice turn on one OpenAI-compatible provider `a` at `url` (its `/v1`): STT
 * (batch, model `w`), chat (model `f`: `m`) and TTS (voice `v`: `x`), each routed to `a` alone.
 */
export function voiceTurnConfig(url: string): RouterConfig {
  return {
    providers: {
      a: {
        kind: 'openai-compatible',
        baseUrl: `${url}/v1`,
        tts: { voices: { v: 'x' } },
        chat: { models: { f: 'm' } },
        stt: { model: 'w', streaming: false },
      },
    },
    routes: { tts: { providers: ['a'] }, chat: { providers: ['a'] }, stt: { providers: ['a'] } },
  };
}
