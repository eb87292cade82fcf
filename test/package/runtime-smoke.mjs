// Runs one call of every capability through createRouter with the DEFAULT options (no fetch or
// WebSocket override), against the loopback mocks of voxroute/testing, in whatever runtime runs
// this file: Node, Bun (`npx -y bun@1`) or Deno (`npx -y deno@2 run -A`). Imports the built
// dist/ (run `npm run build` first). Checks exact outputs; exits 1 on any failure.
//   tts  (HTTP, OpenAI-compatible /audio/speech): the mock's exact PCM bytes
//   stt  (HTTP multipart, OpenAI-compatible /audio/transcriptions): the mock's transcript
//   stt  (WebSocket, Deepgram): the mock's first final transcript
//   chat (HTTP SSE, OpenAI-compatible /chat/completions): the mock's reply
//   tts  24 kHz -> 16 kHz resampled on the router's worker thread: the event loop's bytes
// Usage: scripts/smoke-runtimes.sh runs it under each runtime.

import { createRouter } from '../../dist/index.js';
import {
  createDeepgramMock,
  createOpenAiCompatibleMock,
  DEFAULT_CHAT_REPLY,
  DEFAULT_TRANSCRIPT,
  mockSpeechPcm,
  startMockServer,
  syntheticAudio,
} from '../../dist/testing/index.js';

const runtime =
  typeof globalThis.Bun !== 'undefined'
    ? `bun ${globalThis.Bun.version}`
    : typeof globalThis.Deno !== 'undefined'
      ? `deno ${globalThis.Deno.version.deno}`
      : `node ${process.version}`;
const KEY = 'dg-smoke-key';
const failures = [];

function check(name, got, want) {
  const ok = JSON.stringify(got) === JSON.stringify(want);
  console.log(
    `${ok ? 'ok' : 'FAIL'} [${runtime}] ${name}: ${JSON.stringify(got)}${ok ? '' : ` (want ${JSON.stringify(want)})`}`,
  );
  if (!ok) failures.push(name);
}

async function collect(stream) {
  const items = [];
  for await (const item of stream) items.push(item);
  return { items, result: await stream.result };
}

const openai = await startMockServer({ provider: createOpenAiCompatibleMock() });
const deepgram = await startMockServer({
  provider: createDeepgramMock({ apiKey: KEY, inactivityTimeoutMs: 0 }),
});
const router = createRouter({
  providers: {
    oa: {
      kind: 'openai-compatible',
      baseUrl: `${openai.url}/v1`,
      tts: { model: 'tts-1', voices: { alloy: 'alloy' } },
      stt: { model: 'whisper-1' },
      chat: { models: { m: 'gpt-mock' } },
    },
    dg: { kind: 'deepgram', baseUrl: deepgram.url, apiKey: KEY, stt: { model: 'nova-3' } },
  },
  routes: {
    tts: { providers: ['oa'] },
    stt: { providers: ['oa'] },
    chat: { providers: ['oa'] },
    live: { capability: 'stt', providers: ['dg'] },
  },
});

const format = { encoding: 'pcm_s16le', sampleRate: 16000 };
const pcm = syntheticAudio({ durationMs: 2000, format });
async function* audio() {
  for (let i = 0; i < pcm.byteLength; i += 3200) yield pcm.subarray(i, i + 3200);
}

try {
  const text = 'Your table is booked.';
  const tts = await collect(router.tts({ text, voice: 'alloy' }));
  const bytes = tts.items.reduce((n, c) => n + c.data.byteLength, 0);
  const want = mockSpeechPcm(text);
  const same =
    bytes === want.byteLength &&
    Buffer.compare(Buffer.concat(tts.items.map((c) => Buffer.from(c.data))), Buffer.from(want)) === 0;
  check(
    'tts bytes',
    { bytes, same, provider: tts.result.provider },
    { bytes: want.byteLength, same: true, provider: 'oa' },
  );

  // 24 kHz -> 16 kHz on the resampler's worker thread (resampleOffload: 0): the bytes of the
  // event loop. Where the runtime cannot start the worker, the router resamples inline (and says
  // so through its logger): the bytes must be the same either way.
  const warnings = [];
  const routers = [false, 0].map((resampleOffload) =>
    createRouter(
      {
        providers: {
          oa: { kind: 'openai-compatible', baseUrl: `${openai.url}/v1`, tts: { voices: { alloy: 'alloy' } } },
        },
        routes: { tts: { providers: ['oa'] } },
      },
      { resampleOffload, logger: { warn: (message) => warnings.push(message) } },
    ),
  );
  const converted = [];
  for (const r of routers) {
    const got = await collect(
      r.tts({ text, voice: 'alloy', format: { encoding: 'pcm_s16le', sampleRate: 16000 } }),
    );
    converted.push(Buffer.concat(got.items.map((c) => Buffer.from(c.data))));
    await r.close();
  }
  check(
    'tts 24k -> 16k on the worker thread',
    { bytes: converted[1].byteLength, same: Buffer.compare(converted[0], converted[1]) === 0 },
    { bytes: Math.round(want.byteLength / 3) * 2, same: true },
  );
  if (warnings.length > 0) console.log(`note [${runtime}]: ${warnings.join('; ')}`);

  const stt = await collect(router.stt({ audio: audio(), format }));
  check(
    'stt (http) transcript',
    stt.items.filter((e) => e.type === 'final').map((e) => e.text),
    [DEFAULT_TRANSCRIPT],
  );

  const live = await collect(router.stt({ audio: audio(), format, route: 'live' }));
  check(
    'stt (websocket) transcript',
    {
      finals: live.items.filter((e) => e.type === 'final').map((e) => e.text),
      provider: live.result.provider,
    },
    { finals: ['hello from the mock', 'your'], provider: 'dg' },
  );

  const chat = await collect(router.chat({ messages: [{ role: 'user', content: 'hi' }], model: 'm' }));
  check(
    'chat reply',
    chat.items
      .filter((e) => e.type === 'text-delta')
      .map((e) => e.text)
      .join(''),
    DEFAULT_CHAT_REPLY,
  );
} catch (error) {
  console.log(`FAIL [${runtime}] ${error?.name}: ${error?.message}`);
  failures.push(String(error));
} finally {
  await router.close();
  await openai.close();
  await deepgram.close();
}
if (failures.length > 0) {
  console.log(`runtime-smoke [${runtime}]: ${failures.length} failure(s)`);
  process.exit(1);
}
console.log(`runtime-smoke [${runtime}]: every capability served`);
// Exit explicitly: under Deno, importing voxroute/testing (which imports msw at load) keeps the
// process alive after everything here is closed (importing voxroute alone does not).
process.exit(0);
