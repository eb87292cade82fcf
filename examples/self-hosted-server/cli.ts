import { parseArgs } from 'node:util';
import { findExecutable } from './engines.js';
import { FAIL_MODES, type FailMode } from './failure-mode.js';
import type { SelfHostedServer, SelfHostedServerOptions } from './server.js';

/** Environment variable read for the API key when `--api-key` is not given (keeps it out of `ps`). */
export const API_KEY_ENV = 'VOXROUTE_SERVER_API_KEY';

/** Usage text of the CLI. */
export const USAGE = `Usage: node --import jiti/register examples/self-hosted-server/server.ts [options]

  --port N              TCP port (default 8801; 0 = any free port)
  --host H              interface (default 127.0.0.1; 0.0.0.0 to serve other machines)
  --fail-mode M         none | 503 | stall | reset (default none)
  --api-key K           require Authorization: Bearer K (or set ${API_KEY_ENV})
  --espeak PATH         espeak-ng binary (default: espeak-ng on PATH)
  --pocketsphinx PATH   pocketsphinx binary (default: pocketsphinx_continuous, then pocketsphinx)
  --word-gap-ms N       gap between streamed chat words in ms (default 30)
  --quiet               no request log
  --help                this text
`;

/** The outcome of {@link parseCliArgs}: options to start with, or a request for help. */
export type CliCommand =
  | { kind: 'help' }
  | { kind: 'serve'; options: SelfHostedServerOptions; quiet: boolean };

function nonNegativeInteger(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`--${name} must be a non-negative integer, got '${value}'.`);
  return n;
}

/**
 * Parses the CLI arguments (without `node` and the script). `env` supplies {@link API_KEY_ENV}.
 * Throws Error with a one-line message for an unknown option or a bad value; the message never
 * holds the API key.
 */
export function parseCliArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): CliCommand {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'fail-mode': { type: 'string' },
      'api-key': { type: 'string' },
      espeak: { type: 'string' },
      pocketsphinx: { type: 'string' },
      'word-gap-ms': { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) return { kind: 'help' };
  const options: SelfHostedServerOptions = {};
  if (values.port !== undefined) {
    const port = nonNegativeInteger('port', values.port);
    if (port > 65535) throw new Error(`--port must be at most 65535, got '${values.port}'.`);
    options.port = port;
  }
  if (values.host !== undefined) options.host = values.host;
  const failMode = values['fail-mode'];
  if (failMode !== undefined) {
    if (!(FAIL_MODES as readonly string[]).includes(failMode)) {
      throw new Error(`--fail-mode must be one of ${FAIL_MODES.join(', ')}, got '${failMode}'.`);
    }
    options.failMode = failMode as FailMode;
  }
  const apiKey = values['api-key'] ?? env[API_KEY_ENV];
  if (apiKey !== undefined && apiKey !== '') options.apiKey = apiKey;
  if (values.espeak !== undefined || values.pocketsphinx !== undefined) {
    options.engines = {
      ...(values.espeak !== undefined ? { espeak: values.espeak } : {}),
      ...(values.pocketsphinx !== undefined ? { pocketsphinx: values.pocketsphinx } : {}),
    };
  }
  if (values['word-gap-ms'] !== undefined) {
    options.chatWordGapMs = nonNegativeInteger('word-gap-ms', values['word-gap-ms']);
  }
  return { kind: 'serve', options, quiet: values.quiet === true };
}

async function engineLine(label: string, candidates: string[], install: string): Promise<string> {
  for (const candidate of candidates) {
    const path = await findExecutable(candidate);
    if (path !== undefined) return `  ${label}: ${path}`;
  }
  return `  ${label}: not found (endpoint answers 501; install with: sudo apt-get install -y ${install})`;
}

/**
 * Runs the CLI: parses `argv`, starts the server with `start`, prints where it listens and
 * which engines it found, logs each request to stderr (unless `--quiet`), and closes on SIGINT
 * or SIGTERM. Resolves with an exit code when it should exit at once (help: 0, bad arguments:
 * 2), or undefined while the server runs.
 */
export async function runCli(
  argv: readonly string[],
  start: (options: SelfHostedServerOptions) => Promise<SelfHostedServer>,
): Promise<number | undefined> {
  let command: CliCommand;
  try {
    command = parseCliArgs(argv);
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (command.kind === 'help') {
    console.log(USAGE);
    return 0;
  }
  const { options, quiet } = command;
  const server = await start({
    ...options,
    ...(quiet ? {} : { log: (line: string) => console.error(line) }),
  });
  const espeak = options.engines?.espeak;
  const sphinx = options.engines?.pocketsphinx;
  console.log(
    [
      `voxroute self-hosted server listening on ${server.url} (OpenAI base URL ${server.baseUrl})`,
      `  fail mode: ${server.failMode}; API key: ${options.apiKey === undefined ? 'none (open)' : 'required'}`,
      await engineLine('espeak-ng', [espeak ?? 'espeak-ng'], 'espeak-ng'),
      await engineLine(
        'pocketsphinx',
        sphinx !== undefined ? [sphinx] : ['pocketsphinx_continuous', 'pocketsphinx'],
        'pocketsphinx pocketsphinx-en-us',
      ),
    ].join('\n'),
  );
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return undefined;
}
