import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CONFIG_OPTION, parseCommandArgs } from '../args.js';
import { CliError } from '../cli-error.js';
import { loadCliConfig } from '../config-file.js';
import type { CliContext } from '../context.js';
import { EXIT_IO, EXIT_OK, EXIT_USAGE } from '../exit-codes.js';
import { startProgress } from '../progress.js';
import { describeResult, openRouter, pickRoute } from '../router-call.js';

/**
 * `voxroute stt FILE.wav [--interim] [--language CODE] [--route NAME] [-c FILE]`: transcribes a
 * mono WAV file (PCM s16le, 32-bit float, mu-law or A-law, 8000 to 192000 Hz) through the
 * router and prints each final transcript as a line on stdout; with `--interim`, partial
 * transcripts too, each prefixed `~ `. A file voxroute cannot read or send exits EXIT_IO (4).
 */
export async function sttCommand(argv: readonly string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'stt',
    argv,
    {
      ...CONFIG_OPTION,
      interim: { type: 'boolean' },
      language: { type: 'string' },
      route: { type: 'string' },
    },
    1,
  );
  const input = positionals[0];
  if (!input)
    throw new CliError('stt: give a WAV file to transcribe, e.g. voxroute stt call.wav', EXIT_USAGE);
  const file = resolve(ctx.cwd ?? process.cwd(), input);
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file);
  } catch (error) {
    throw new CliError(
      `stt: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      EXIT_IO,
    );
  }
  try {
    const { config } = await loadCliConfig(ctx, values.config);
    const route = pickRoute(config, 'stt', values.route);
    const { readWav, ProtocolError, RequestError } = await import('voxroute');
    const notWav = (error: { message: string }) =>
      new CliError(`stt: ${file} is not a WAV file voxroute reads: ${error.message}`, EXIT_IO);
    const wav = readWav(handle.createReadStream());
    let format: Awaited<typeof wav.format>;
    try {
      format = await wav.format;
    } catch (error) {
      if (ProtocolError.isInstance(error)) throw notWav(error);
      throw error;
    }
    const router = await openRouter(ctx, config);
    const progress = startProgress(ctx, `transcribing ${input} through route '${route}'`);
    try {
      const stream = router.stt({
        route,
        audio: wav.data,
        format,
        ...(values.interim ? { interim: true } : {}),
        ...(values.language ? { language: values.language } : {}),
      });
      let finals = 0;
      for await (const event of stream) {
        if (event.type === 'final') {
          finals++;
          // One final a line: the white space a provider keeps at a final's seam (Cartesia's
          // " world") has no place at a line's start.
          ctx.stdout(`${event.text.trim()}\n`);
          progress.update(`${finals} final transcript(s) so far`);
        } else if (values.interim) {
          ctx.stdout(`~ ${event.text.trim()}\n`);
        }
      }
      const result = await stream.result;
      progress.done();
      ctx.stderr(`voxroute: ${finals} final transcript(s), ${describeResult(result)}\n`);
      return EXIT_OK;
    } catch (error) {
      // A file that breaks off after its format (before or inside its data chunk's header)
      // reaches the router as the caller's audio stream failing: the file's fault, as above.
      // A format the file declares but voxroute cannot send (a sample rate out of range):
      // the file is at fault, not the command line, so it exits as an unreadable input does.
      if (RequestError.isInstance(error) && error.field.startsWith('format')) {
        throw new CliError(
          `stt: ${file} is a WAV file voxroute cannot transcribe: ${error.message}`,
          EXIT_IO,
        );
      }
      if (RequestError.isInstance(error) && error.field === 'audio') {
        const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
        if (ProtocolError.isInstance(cause)) throw notWav(cause);
        throw new CliError(
          `stt: cannot read ${file}: ${String(cause?.code ?? cause?.message ?? error.message)}`,
          EXIT_IO,
        );
      }
      throw error;
    } finally {
      progress.done();
      await router.close();
    }
  } finally {
    await handle.close();
  }
}
