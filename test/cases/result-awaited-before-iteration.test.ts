/**
 * `result` of a stream (chat/tts/stt) or of a voice turn awaited before it is iterated: it does
 * not start the call (nothing is read, no provider is contacted), and it settles when nothing
 * else could end the call: router.close() rejects it with AbortError 'The router was closed',
 * the request's signal with AbortError naming the call. Iterating afterwards still works.
 */
import { describe, expect, it } from 'vitest';
import { AbortError, createRouter, voiceTurn } from '../../src/index.js';
import { startMockProviders, syntheticAudio } from '../../src/testing/index.js';
import { ONE_PROVIDER_CONFIG } from '../helpers/mock-providers.js';

const FORMAT = { encoding: 'pcm_s16le' as const, sampleRate: 16000 };
const config = ONE_PROVIDER_CONFIG;
const audio = async function* () {
  yield syntheticAudio({ durationMs: 200, sampleRate: 16000 });
};
const turnRequest = (signal?: AbortSignal) => ({
  audio: audio(),
  format: FORMAT,
  messages: [],
  model: 'fast',
  voice: 'agent',
  ...(signal ? { signal } : {}),
});
const settled = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: unknown) => (e instanceof AbortError ? ['AbortError', e.code, e.message] : e),
  );

describe('result awaited before iterating', () => {
  it('router.close() rejects a pending result of a stream and of a voice turn with AbortError', async () => {
    const mocks = await startMockProviders(config);
    try {
      const router = createRouter(mocks.config);
      const chat = router.chat({ model: 'fast', messages: [{ role: 'user', content: 'x' }] });
      const tts = router.tts({ text: 'Hello.', voice: 'agent' });
      const turn = voiceTurn(router, turnRequest());
      const results = [settled(chat.result), settled(tts.result), settled(turn.result)];
      await router.close();
      const closed = ['AbortError', 'ABORTED', 'The router was closed'];
      expect(await Promise.all(results)).toEqual([closed, closed, closed]);
      expect(mocks.mocks.a!.requests).toEqual([]);
    } finally {
      await mocks.close();
    }
  });

  it("the request's signal rejects a pending result with AbortError; result read after the abort rejects at once", async () => {
    const mocks = await startMockProviders(config);
    const router = createRouter(mocks.config);
    try {
      const controller = new AbortController();
      const chat = router.chat({
        model: 'fast',
        messages: [{ role: 'user', content: 'x' }],
        signal: controller.signal,
      });
      const turn = voiceTurn(router, turnRequest(controller.signal));
      const results = [settled(chat.result), settled(turn.result)];
      controller.abort();
      expect(await Promise.all(results)).toEqual([
        ['AbortError', 'ABORTED', 'The call was aborted'],
        ['AbortError', 'ABORTED', 'The voice turn was aborted'],
      ]);
      const late = router.stt({ audio: audio(), format: FORMAT, signal: controller.signal });
      expect(await settled(late.result)).toEqual(['AbortError', 'ABORTED', 'The call was aborted']);
      expect(mocks.mocks.a!.requests).toEqual([]);
    } finally {
      await router.close();
      await mocks.close();
    }
  });

  it('a result read first still resolves when the stream is then read to its end', async () => {
    const mocks = await startMockProviders(config);
    const router = createRouter(mocks.config);
    try {
      const chat = router.chat({ model: 'fast', messages: [{ role: 'user', content: 'x' }] });
      const result = chat.result;
      let text = '';
      for await (const event of chat) if (event.type === 'text-delta') text += event.text;
      expect(text).toBe('This is a mock reply.');
      expect((await result).provider).toBe('a');
      const turn = voiceTurn(router, turnRequest());
      const turnResult = turn.result;
      for await (const _ of turn);
      expect((await turnResult).stages.tts?.provider).toBe('a');
    } finally {
      await router.close();
      await mocks.close();
    }
  });
});
