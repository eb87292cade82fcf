/**
 * A router config for two self-hosted OpenAI-compatible servers (examples/self-hosted-server)
 * on loopback, each offering chat, speech and transcription, routed by measured latency. The
 * same config in YAML: voxroute.config.yaml. `npm run demo` loads this file and points it at
 * two of the testing kit's mock servers instead (the demo needs nothing but Node), so the
 * timeouts below, sized for the real engines, are generous for it.
 *
 * A TypeScript config is code: here the servers' URLs may come from the environment
 * (EC2_A_URL, EC2_B_URL), as an EC2 deployment would set them, with loopback defaults.
 */
import { defineConfig } from 'voxroute';

export default defineConfig({
  providers: {
    'ec2-a': {
      kind: 'openai-compatible',
      baseUrl: process.env.EC2_A_URL ?? 'http://127.0.0.1:8801/v1',
      chat: { models: { fast: 'voxroute-echo' } },
      tts: { model: 'espeak-ng', voices: { agent: 'en-us' }, responseFormat: 'wav' },
      stt: { model: 'pocketsphinx' },
    },
    'ec2-b': {
      kind: 'openai-compatible',
      baseUrl: process.env.EC2_B_URL ?? 'http://127.0.0.1:8802/v1',
      chat: { models: { fast: 'voxroute-echo' } },
      tts: { model: 'espeak-ng', voices: { agent: 'en-us' }, responseFormat: 'wav' },
      stt: { model: 'pocketsphinx' },
    },
  },
  routes: {
    tts: { providers: ['ec2-a', 'ec2-b'], strategy: 'latency', midStream: 'resume' },
    // pocketsphinx answers only after decoding the whole utterance (seconds of CPU): give the
    // first transcript 30 s, counted from the end of the caller's audio, and each later one
    // (one per utterance, as it decodes) 30 s after the one before.
    stt: {
      providers: ['ec2-a', 'ec2-b'],
      strategy: 'latency',
      firstChunkTimeoutMs: 30_000,
      idleTimeoutMs: 30_000,
      midStream: 'replay',
    },
    chat: { providers: ['ec2-a', 'ec2-b'], strategy: 'latency' },
  },
});
