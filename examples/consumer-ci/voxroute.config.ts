import { defineConfig } from 'voxroute';

// The app's router config, as in production: real hosts, keys from the environment.
export default defineConfig({
  providers: {
    openai: {
      kind: 'openai',
      apiKey: { env: 'OPENAI_API_KEY' },
      chat: { models: { fast: 'gpt-4o-mini' } },
      stt: { model: 'gpt-4o-transcribe' },
    },
    deepgram: { kind: 'deepgram', apiKey: { env: 'DEEPGRAM_API_KEY' }, stt: { model: 'nova-3' } },
    cartesia: {
      kind: 'cartesia',
      apiKey: { env: 'CARTESIA_API_KEY' },
      tts: { model: 'sonic-3', voices: { agent: 'a0e99841-438c-4a64-b679-ae501e7d6091' } },
    },
    elevenlabs: {
      kind: 'elevenlabs',
      apiKey: { env: 'ELEVENLABS_API_KEY' },
      tts: { voices: { agent: 'JBFqnCBsd6RMkjVDRZzb' } },
    },
  },
  routes: {
    chat: { providers: ['openai'] },
    tts: { providers: ['cartesia', 'elevenlabs'], strategy: 'priority' },
    stt: { providers: ['deepgram', 'openai'], strategy: 'priority' },
  },
});
