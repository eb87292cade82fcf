import { afterEach, beforeEach, expect, it } from 'vitest';
import { createRouter, type Router } from 'voxroute';
import { type MockProviders, startMockProviders } from 'voxroute/testing';
import { greet } from '../src/greeting.js';
import config from '../voxroute.config.js';

let mocks: MockProviders;
let router: Router;
beforeEach(async () => {
  // One loopback mock per provider of the app's config; the returned config points at them.
  mocks = await startMockProviders(config, {
    providers: {
      openai: { chat: 'Hello, how can I help?' },
      // Cartesia fails its first call with a 503: the route falls back to ElevenLabs.
      cartesia: {
        script: {
          bytes: { failTimes: 1, failStatus: 503 },
          'tts-websocket': { failTimes: 1, failStatus: 503 },
        },
      },
    },
  });
  router = createRouter(mocks.config);
});
afterEach(async () => {
  await router.close();
  await mocks.close();
});

it('greets the caller, and TTS falls back from Cartesia to ElevenLabs', async () => {
  const { text, audioBytes } = await greet(router);
  expect(text).toBe('Hello, how can I help?');
  expect(audioBytes).toBeGreaterThan(0);
  expect(audioBytes % 2).toBe(0); // whole PCM s16le samples
  expect(mocks.mocks.openai!.requests.map((r) => r.endpoint)).toEqual(['chat']);
  expect(mocks.mocks.cartesia!.requests).toHaveLength(1);
  expect(mocks.mocks.elevenlabs!.requests).toHaveLength(1);
});
