import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { speakable } from '../../text/speakable.js';
import { CONFIG_OPTION, intOption, parseCommandArgs } from '../args.js';
import { CliError } from '../cli-error.js';
import { loadCliConfig } from '../config-file.js';
import type { CliContext } from '../context.js';
import { EXIT_IO, EXIT_OK, EXIT_USAGE } from '../exit-codes.js';
import { whyUnwritable } from '../output-file.js';
import { startProgress } from '../progress.js';
import { describeResult, openRouter, pickName, pickRoute } from '../router-call.js';

/**
 * `voxroute tts TEXT [-o FILE] [--voice NAME] [--route NAME] [--sample-rate HZ] [-c FILE]`:
 * speaks TEXT through the router, as PCM s16le mono at `--sample-rate` (default 24000 Hz).
 * With `-o FILE` the audio is written as a WAV file; without (or `-o -`) the raw PCM goes to
 * stdout, refused when stdout is a terminal. A summary line goes to stderr. An output FILE whose
 * folder is missing or not writable, or that is a folder, exits 4 before any provider is called.
 */
export async function ttsCommand(argv: readonly string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'tts',
    argv,
    {
      ...CONFIG_OPTION,
      out: { type: 'string', short: 'o' },
      voice: { type: 'string' },
      route: { type: 'string' },
      'sample-rate': { type: 'string' },
    },
    1,
  );
  const text = positionals[0];
  if (!text)
    throw new CliError(
      "tts: give the text to speak, e.g. voxroute tts 'Hello there' -o hello.wav",
      EXIT_USAGE,
    );
  // The library answers text with nothing to speak with no audio and no provider: from the
  // command line that is a mistake, told like missing text rather than as an empty WAV file.
  if (!speakable(text))
    throw new CliError(
      `tts: the text has nothing to speak (no letter or digit): ${JSON.stringify(text)}; give words, e.g. voxroute tts 'Hello there' -o hello.wav`,
      EXIT_USAGE,
    );
  const sampleRate = intOption('tts', 'sample-rate', values['sample-rate'], 24_000, 8000, 192_000);
  const toFile = values.out !== undefined && values.out !== '-';
  if (!toFile && ctx.stdoutIsTTY) {
    throw new CliError(
      'tts: refusing to write raw audio to a terminal; pass -o FILE.wav or pipe stdout',
      EXIT_USAGE,
    );
  }
  const file = toFile ? resolve(ctx.cwd ?? process.cwd(), values.out as string) : undefined;
  // Checked before the provider is called (and billed): a folder that is missing or not writable.
  const unwritable = file === undefined ? undefined : await whyUnwritable(file);
  if (file !== undefined && unwritable !== undefined)
    throw new CliError(`tts: cannot write ${file}: ${unwritable}`, EXIT_IO);
  const { config } = await loadCliConfig(ctx, values.config);
  const route = pickRoute(config, 'tts', values.route);
  const voice = pickName(config, route, 'tts', values.voice);
  const { encodeWav } = await import('voxroute');
  const router = await openRouter(ctx, config);
  const progress = startProgress(ctx, `speaking through route '${route}'`);
  try {
    const format = { encoding: 'pcm_s16le', sampleRate, channels: 1 } as const;
    const stream = router.tts({ route, text, voice, format });
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    for await (const chunk of stream) {
      // One progress line when the audio starts (printed only if the call is slow), not one per chunk.
      if (bytes === 0) progress.update('receiving audio');
      bytes += chunk.data.byteLength;
      if (toFile) chunks.push(chunk.data);
      else await ctx.stdoutBytes?.(chunk.data);
    }
    const result = await stream.result;
    progress.done();
    const ms = Math.round((bytes / 2 / sampleRate) * 1000);
    if (file !== undefined) {
      const pcm = Buffer.concat(chunks);
      try {
        await writeFile(file, encodeWav(format, pcm));
      } catch (error) {
        throw new CliError(`tts: cannot write ${file}: ${(error as Error).message}`, EXIT_IO);
      }
      ctx.stderr(
        `voxroute: wrote ${file}: ${ms} ms of PCM s16le ${sampleRate} Hz mono, ${describeResult(result)}\n`,
      );
    } else {
      ctx.stderr(
        `voxroute: ${bytes} bytes (${ms} ms) of PCM s16le ${sampleRate} Hz mono, ${describeResult(result)}\n`,
      );
    }
    return EXIT_OK;
  } finally {
    progress.done();
    await router.close();
  }
}
