/**
 * voxroute routes as Vercel AI SDK models: streamText, generateSpeech and transcribe on a router
 * that falls back from a failing provider, with no network and no keys:
 *
 *   npx -y node@22 scripts/run-ts.mjs examples/ai-sdk.ts      (ai 7 needs Node >= 22)
 *
 * Two OpenAI-compatible providers on loopback (the testing kit's mocks): `primary` answers
 * HTTP 503 to everything, `backup` serves. The AI SDK sees one provider, `vox`; voxroute picks
 * and falls back underneath it.
 */
import { createProviderRegistry, generateSpeech, streamText, transcribe } from 'ai';
import { createRouter, durationMs } from 'voxroute';
import { createVoxroute } from 'voxroute/ai-sdk';
import { createOpenAiCompatibleMock, startMockServer } from 'voxroute/testing';

if (Number(process.versions.node.split('.')[0]) < 22) {
  console.error(
    `ai 7 needs Node >= 22 (this is ${process.version}): npx -y node@22 scripts/run-ts.mjs examples/ai-sdk.ts`,
  );
  process.exit(1);
}

const primary = await startMockServer({
  provider: createOpenAiCompatibleMock({ script: { failTimes: 1000, failStatus: 503 } }),
});
const backup = await startMockServer({
  provider: createOpenAiCompatibleMock({
    chat: 'Your table for two is booked at eight.',
    transcript: 'A table for two at eight.',
  }),
});
const provider = (url: string) => ({
  kind: 'openai-compatible' as const,
  baseUrl: `${url}/v1`,
  chat: { models: { fast: 'llama-3.1-8b' } },
  tts: { voices: { agent: 'af_heart' } },
  stt: { model: 'whisper-large-v3' },
});
const router = createRouter({
  providers: { primary: provider(primary.url), backup: provider(backup.url) },
  routes: {
    chat: { providers: ['primary', 'backup'], strategy: 'priority' },
    tts: { providers: ['primary', 'backup'], strategy: 'priority' },
    stt: { providers: ['primary', 'backup'], strategy: 'priority' },
  },
});
router.on('fallback', (e) =>
  console.log(`  [voxroute] ${e.capability}: ${e.provider} failed, falling back to ${e.next}`),
);

try {
  const vox = createVoxroute(router);

  console.log('streamText (logical model "fast"):');
  const reply = streamText({ model: vox.languageModel('fast'), prompt: 'Book a table for two at eight.' });
  let text = '';
  for await (const delta of reply.textStream) text += delta;
  console.log(`  "${text}" (served by ${(await reply.providerMetadata)?.voxroute?.provider})`);

  console.log('generateSpeech (logical voice "agent", WAV by default):');
  const { audio } = await generateSpeech({ model: vox.speechModel('agent'), text });
  const pcmBytes = audio.uint8Array.byteLength - 44;
  const ms = durationMs({ encoding: 'pcm_s16le', sampleRate: 24_000 }, pcmBytes);
  console.log(`  ${audio.mediaType}, ${audio.uint8Array.byteLength} bytes, ${ms} ms of 24 kHz speech`);

  console.log('transcribe (the "stt" route), through a provider registry:');
  const registry = createProviderRegistry({ vox });
  const heard = await transcribe({ model: registry.transcriptionModel('vox:stt'), audio: audio.uint8Array });
  console.log(`  "${heard.text}" (${heard.durationInSeconds} s of audio)`);
} finally {
  await router.close();
  await Promise.all([primary.close(), backup.close()]);
}
