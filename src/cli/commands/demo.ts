import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { RouterConfig } from 'voxroute';
import { parseCommandArgs } from '../args.js';
import { CliError } from '../cli-error.js';
import type { CliContext } from '../context.js';
import { EXIT_IO, EXIT_OK } from '../exit-codes.js';
import { whyUnwritable } from '../output-file.js';
import { startProgress } from '../progress.js';
import { describeResult } from '../router-call.js';
import { loadTestingKit } from '../testing-kit.js';

/**
 * `voxroute demo [-o FILE.wav]`: a voice turn (stt -> chat -> tts) routed across two
 * OpenAI-compatible mock providers of voxroute/testing on loopback, the first of which
 * answers 503 to everything, so each step falls back to the second. Needs no config, no key
 * and no network. Prints one line per step on stdout; `-o` writes the spoken reply as WAV (a
 * FILE that cannot be written exits 4 before the mocks start).
 * (The repository's fuller demo with real speech engines is `npm run demo`.)
 */
export async function demoCommand(argv: readonly string[], ctx: CliContext): Promise<number> {
  const { values } = parseCommandArgs('demo', argv, { out: { type: 'string', short: 'o' } }, 0);
  const file = values.out === undefined ? undefined : resolve(ctx.cwd ?? process.cwd(), values.out);
  // Checked before the mocks start, as `tts -o` does: a bad path fails at once, not after the turn.
  const unwritable = file === undefined ? undefined : await whyUnwritable(file);
  if (unwritable !== undefined) throw new CliError(`demo: cannot write ${file}: ${unwritable}`, EXIT_IO);
  const testing = await loadTestingKit('demo');
  const { createRouter, encodeWav } = await import('voxroute');
  const failing = testing.createOpenAiCompatibleMock({
    script: { failTimes: Number.MAX_SAFE_INTEGER, failStatus: 503 },
  });
  const [a, b] = await Promise.all([
    testing.startMockServer({ provider: failing }),
    testing.startMockServer({ provider: testing.createOpenAiCompatibleMock() }),
  ]);
  const section = {
    chat: { models: { fast: 'mock-llm' } },
    tts: { model: 'mock-tts', voices: { agent: 'alloy' }, responseFormat: 'pcm' },
    stt: { model: 'mock-stt' },
  };
  const config = {
    providers: {
      'mock-a': { kind: 'openai-compatible', baseUrl: `${a.url}/v1`, ...section },
      'mock-b': { kind: 'openai-compatible', baseUrl: `${b.url}/v1`, ...section },
    },
    routes: {
      stt: { providers: ['mock-a', 'mock-b'], strategy: 'priority' },
      chat: { providers: ['mock-a', 'mock-b'], strategy: 'priority' },
      tts: { providers: ['mock-a', 'mock-b'], strategy: 'priority' },
    },
  } as RouterConfig;
  const router = createRouter(config);
  const progress = startProgress(ctx, 'running the voice turn');
  try {
    ctx.stdout(`mock-a (${a.url}) answers 503; mock-b (${b.url}) is healthy\n`);
    const format = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
    const speech = testing.syntheticVoiceBytes({ durationMs: 1500, sampleRate: 16_000 });
    const stt = router.stt({
      audio: (async function* () {
        yield speech;
      })(),
      format,
    });
    let transcript = '';
    for await (const e of stt) if (e.type === 'final') transcript += (transcript ? ' ' : '') + e.text.trim();
    ctx.stdout(`stt:  "${transcript}" ${describeResult(await stt.result)}\n`);
    progress.update('waiting for the reply (chat)');
    const chat = router.chat({ model: 'fast', messages: [{ role: 'user', content: transcript }] });
    let reply = '';
    for await (const e of chat) if (e.type === 'text-delta') reply += e.text;
    ctx.stdout(`chat: "${reply}" ${describeResult(await chat.result)}\n`);
    progress.update('speaking the reply (tts)');
    const out = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 } as const;
    const tts = router.tts({ text: reply, voice: 'agent', format: out });
    const chunks: Uint8Array[] = [];
    for await (const c of tts) chunks.push(c.data);
    const pcm = Buffer.concat(chunks);
    ctx.stdout(
      `tts:  ${Math.round((pcm.byteLength / 2 / 24_000) * 1000)} ms of audio ${describeResult(await tts.result)}\n`,
    );
    if (file !== undefined) {
      try {
        await writeFile(file, encodeWav(out, pcm));
      } catch (error) {
        throw new CliError(`demo: cannot write ${file}: ${(error as Error).message}`, EXIT_IO);
      }
      ctx.stdout(`wrote ${file}\n`);
    }
    return EXIT_OK;
  } finally {
    progress.done();
    await router.close();
    await Promise.all([a.close(), b.close()]);
  }
}
