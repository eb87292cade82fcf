import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { mockEnv } from '../../testing/mock-env.js';
import { CONFIG_OPTION, parseCommandArgs } from '../args.js';
import { CliError } from '../cli-error.js';
import { loadCliConfig } from '../config-file.js';
import type { CliContext } from '../context.js';
import { EXIT_IO, EXIT_OK } from '../exit-codes.js';
import { whyUnwritable } from '../output-file.js';
import { loadTestingKit, requireWs } from '../testing-kit.js';

/** One served mock, as `voxroute mock --json` prints it. */
export interface ServedMock {
  kind: string;
  /** What to give a client as its base URL (for OpenAI kinds, the origin plus `/v1`). */
  baseUrl: string;
}

/**
 * `voxroute mock [-c FILE] [--json] [--tls [--ca-out FILE]]`: serves the testing kit's
 * wire-accurate mock of each provider of the config on its own loopback port (voxroute/testing
 * `startMockServer`), so clients in any language can be tested against them; prints one line
 * per provider (`name kind baseUrl`, or a JSON object with `--json`) on stdout, then serves
 * until SIGINT/SIGTERM. Kind `sagemaker` is not served (use the testing kit's
 * `startSageMakerEmulator`). The mocks accept any API key.
 *
 * `--tls`: HTTPS and WSS with self-signed certificates (one per server; needs the optional peer
 * `selfsigned`); the CA bundle (PEM, every server's certificate) is written to `--ca-out FILE`,
 * else printed: on stdout after the base URLs, or as the `ca` field with `--json`.
 * @throws CliError (exit 2) for `--ca-out` without `--tls`; (exit 4) when FILE cannot be written;
 *   (exit 5) when voxroute/testing cannot be loaded (msw missing), or `ws` cannot be loaded and the
 *   config has a Cartesia, Deepgram or ElevenLabs provider.
 */
export async function mockCommand(argv: readonly string[], ctx: CliContext): Promise<number> {
  const { values } = parseCommandArgs(
    'mock',
    argv,
    { ...CONFIG_OPTION, json: { type: 'boolean' }, tls: { type: 'boolean' }, 'ca-out': { type: 'string' } },
    0,
  );
  const tls = values.tls === true;
  if (values['ca-out'] !== undefined && !tls)
    throw new CliError("mock: --ca-out needs --tls. Run 'voxroute mock --help'.");
  const caFile =
    values['ca-out'] === undefined ? undefined : resolve(ctx.cwd ?? process.cwd(), values['ca-out']);
  // Checked before the config is read and the mocks start, as `tts -o` and `demo -o` are.
  const unwritable = caFile === undefined ? undefined : await whyUnwritable(caFile);
  if (unwritable !== undefined) throw new CliError(`mock: cannot write ${caFile}: ${unwritable}`, EXIT_IO);
  // Unset variables of the config are not needed: the mocks take any key and serve their own URLs.
  const { config } = await loadCliConfig(ctx, values.config, mockEnv(ctx.env ?? process.env));
  const testing = await loadTestingKit('mock');
  await requireWs(
    'mock',
    Object.entries(config.providers).map(([name, provider]) => [name, provider.kind]),
  );
  const servers: { close(): Promise<void>; ca: string | undefined }[] = [];
  const served: Record<string, ServedMock> = {};
  const skipped: string[] = [];
  try {
    for (const [name, provider] of Object.entries(config.providers)) {
      const kind = provider.kind;
      const mock =
        kind === 'openai' || kind === 'openai-compatible'
          ? testing.createOpenAiCompatibleMock()
          : kind === 'anthropic'
            ? testing.createAnthropicMock()
            : kind === 'cartesia'
              ? testing.createCartesiaMock()
              : kind === 'deepgram'
                ? testing.createDeepgramMock()
                : kind === 'elevenlabs'
                  ? testing.createElevenLabsMock()
                  : undefined;
      if (!mock) {
        skipped.push(`${name} (${kind})`);
        continue;
      }
      const server = await testing.startMockServer({ provider: mock, tls });
      servers.push(server);
      const openAi = kind === 'openai' || kind === 'openai-compatible';
      served[name] = { kind, baseUrl: openAi ? `${server.url}/v1` : server.url };
    }
    // Every server's certificate, one PEM block each: the bundle a client trusts.
    const ca = tls ? `${servers.map((s) => s.ca!.trimEnd()).join('\n')}\n` : undefined;
    if (ca !== undefined && caFile !== undefined) {
      try {
        await writeFile(caFile, ca);
      } catch (error) {
        throw new CliError(`mock: cannot write ${caFile}: ${(error as Error).message}`, EXIT_IO);
      }
    }
    const printedCa = caFile === undefined ? ca : undefined;
    if (values.json) {
      ctx.stdout(
        `${JSON.stringify({ providers: served, ...(printedCa !== undefined ? { ca: printedCa } : {}) })}\n`,
      );
    } else {
      const rows = Object.entries(served).map(([name, m]) => [name, m.kind, m.baseUrl]);
      const w = [0, 1].map((c) => Math.max(...rows.map((r) => r[c]!.length)));
      for (const r of rows) ctx.stdout(`${r[0]!.padEnd(w[0]!)}  ${r[1]!.padEnd(w[1]!)}  ${r[2]}\n`);
      if (printedCa !== undefined) ctx.stdout(printedCa);
    }
    if (caFile !== undefined)
      ctx.stderr(`voxroute: wrote the CA certificate(s) of the TLS mocks to ${caFile}\n`);
    if (skipped.length)
      ctx.stderr(`voxroute: not served (no loopback mock for the kind): ${skipped.join(', ')}\n`);
    ctx.stderr(`voxroute: serving ${servers.length} mock provider(s) on loopback; stop with Ctrl-C\n`);
    await untilAborted(ctx.signal);
    return EXIT_OK;
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
}

function untilAborted(signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return new Promise(() => {});
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
