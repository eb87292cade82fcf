/**
 * TTS failover mid-sentence, with no sentence lost or heard twice in full:
 *
 *   node scripts/run-ts.mjs examples/tts-failover.ts
 *
 * Two OpenAI-compatible providers on loopback (the testing kit's mocks). `primary` speaks the
 * first sentence, then its connection resets partway through the second. The route's
 * `midStream: 'resume'` continues on `backup` from the first sentence not fully delivered; the
 * first chunk after the switch carries `discontinuity: true`, which is where the voice changed.
 */
import { createRouter, durationMs } from 'voxroute';
import { createOpenAiCompatibleMock, startMockServer } from 'voxroute/testing';

const primary = await startMockServer({
  provider: createOpenAiCompatibleMock({
    script: { speech: [{}, { chunkBytes: 4800, resetAfterChunks: 2 }] },
  }),
});
const backup = await startMockServer({ provider: createOpenAiCompatibleMock() });

const provider = (url: string) => ({
  kind: 'openai-compatible' as const,
  baseUrl: `${url}/v1`,
  tts: { voices: { agent: 'alloy' } },
});
const router = createRouter({
  providers: { primary: provider(primary.url), backup: provider(backup.url) },
  routes: { tts: { providers: ['primary', 'backup'], strategy: 'priority', midStream: 'resume' } },
});
router.on('fallback', (e) =>
  console.log(`! ${e.provider} failed (${(e.error as Error).message}); resuming on ${e.next}`),
);

try {
  const stream = router.tts({
    text: 'Your table is booked for seven. We will send a reminder an hour before. See you then!',
    voice: 'agent',
  });
  let ms = 0;
  for await (const chunk of stream) {
    const length = durationMs(chunk.format, chunk.data.byteLength);
    if (chunk.discontinuity) console.log(`--- voice changed here, at ${ms.toFixed(0)} ms of audio ---`);
    console.log(
      `chunk: ${chunk.data.byteLength} bytes (${length.toFixed(0)} ms), ${chunk.format.encoding} ${chunk.format.sampleRate} Hz`,
    );
    ms += length;
  }
  const result = await stream.result;
  console.log(
    `\n${ms.toFixed(0)} ms of audio; served by ${result.provider}; attempts: ${result.attempts
      .map((a) => `${a.provider} ${a.outcome}`)
      .join(', ')}`,
  );
} finally {
  await router.close();
  await Promise.all([primary.close(), backup.close()]);
}
