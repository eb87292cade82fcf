/**
 * Capability switch probe (issue 15, P1 p99; a diagnostic, not a target): N routed tts() calls,
 * then N routed chat() calls, on one router, in the order bench/overhead.ts measures them, with
 * no direct calls and no timing. It prints where each section starts and ends (`=== NAME @MS`,
 * performance.now() ms) so that V8's traces and code log can be split by section: which of the
 * router's functions are optimized again when chat() follows tts() (their optimized code was
 * thrown away: a new hidden class, a call site with a new target) and how much TurboFan work
 * that takes during the chat() section.
 *
 * Run (2 cores: pin it, e.g. `taskset -c 0`):
 *   node --log-code --logfile=/tmp/v8.log --no-logfile-per-isolate scripts/run-ts.mjs bench/switch-probe.ts --lib BUILD [--calls N] > /tmp/marks.txt
 *   node bench/jit-jobs.mjs /tmp/v8.log 2 BUILD_FILE_NAME /tmp/marks.txt      # TurboFan jobs per section
 *   node --trace-opt --trace-deopt-verbose scripts/run-ts.mjs bench/switch-probe.ts --lib BUILD   # what was thrown away, where
 *
 *   --lib PATH   an ESM build of voxroute (default dist/index.js)
 *   --calls N    calls per section (default 3000)
 *
 * The router and the server are those of bench/overhead.ts (OpenAI-compatible provider, PCM
 * 24 kHz asked and served; the server in a child process).
 */
import { writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AudioFormat, Router } from 'voxroute';
import { benchArgs } from './args.js';
import { startPcmServerProcess } from './pcm-server.js';

const args = benchArgs(import.meta.url, {
  lib: { type: 'string' },
  calls: { type: 'string', default: '3000' },
});
const HERE = dirname(fileURLToPath(import.meta.url));
const LIB = resolve(args.lib ?? resolve(HERE, '../dist/index.js'));
const CALLS = Number(args.calls);
const PCM_24K: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 };

const voxroute: typeof import('voxroute') = await import(pathToFileURL(LIB).href);
/** A section mark, written at once (V8's own trace lines go to the same stdout). */
const mark = (name: string) => writeSync(1, `\n=== ${name} @${performance.now().toFixed(1)}\n`);

const upstream = await startPcmServerProcess();
const router: Router = voxroute.createRouter(
  voxroute.defineConfig({
    providers: {
      local: {
        kind: 'openai-compatible',
        baseUrl: `${upstream.origin}/v1`,
        tts: { model: 'bench-tts', voices: { agent: 'bench' }, responseFormat: 'pcm', sampleRate: 24_000 },
        chat: { models: { fast: 'bench-chat' } },
      },
    },
    routes: { tts: { providers: ['local'] }, chat: { providers: ['local'] } },
  }),
);
try {
  await router.warmup();
  mark('tts');
  for (let i = 0; i < CALLS; i++) {
    for await (const _ of router.tts({
      text: 'Your table is booked for seven thirty.',
      voice: 'agent',
      format: PCM_24K,
    })) {
      // read to the end
    }
  }
  mark('chat');
  for (let i = 0; i < CALLS; i++) {
    for await (const _ of router.chat({
      model: 'fast',
      messages: [{ role: 'user', content: 'Is my table booked?' }],
    })) {
      // read to the end
    }
  }
  mark('end');
} finally {
  await router.close();
  await upstream.close();
}
