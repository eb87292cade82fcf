import type { CliContext } from './context.js';

/** One subcommand of the `voxroute` CLI, as listed by `voxroute --help`. */
export interface CliCommand {
  /** The word typed after `voxroute`, e.g. `'doctor'`. */
  readonly name: string;
  /** How to call it, after `voxroute <name>`. */
  readonly usage: string;
  /** One line shown next to the name in the help text. */
  readonly summary: string;
  /** Runs the command on its arguments; loaded on demand, so `--help` stays fast. */
  readonly run: (argv: readonly string[], ctx: CliContext) => Promise<number>;
}

/** The subcommands of the `voxroute` CLI, in the order the help lists them. */
export const CLI_COMMANDS: readonly CliCommand[] = [
  {
    name: 'doctor',
    usage: '[-c FILE] [--samples N] [--timeout MS] [--json]',
    summary: 'check the config and probe each provider: TTFC p50/p99, breaker, errors',
    run: async (argv, ctx) => (await import('./commands/doctor.js')).doctorCommand(argv, ctx),
  },
  {
    name: 'tts',
    usage: 'TEXT [-o FILE.wav] [--voice NAME] [--route NAME] [--sample-rate HZ] [-c FILE]',
    summary: 'speak text through the router to a WAV file, or raw PCM to stdout',
    run: async (argv, ctx) => (await import('./commands/tts.js')).ttsCommand(argv, ctx),
  },
  {
    name: 'stt',
    usage: 'FILE.wav [--interim] [--language CODE] [--route NAME] [-c FILE]',
    summary: 'transcribe a WAV file through the router, one final per line',
    run: async (argv, ctx) => (await import('./commands/stt.js')).sttCommand(argv, ctx),
  },
  {
    name: 'chat',
    usage: 'PROMPT [--model NAME] [--system TEXT] [--max-tokens N] [--route NAME] [-c FILE]',
    summary: 'stream a chat reply through the router to stdout',
    run: async (argv, ctx) => (await import('./commands/chat.js')).chatCommand(argv, ctx),
  },
  {
    name: 'mock',
    usage: '[-c FILE] [--json] [--tls [--ca-out FILE]]',
    summary: "serve the config's providers as loopback mocks and print their base URLs",
    run: async (argv, ctx) => (await import('./commands/mock.js')).mockCommand(argv, ctx),
  },
  {
    name: 'bench',
    usage: 'routing|overhead [ARGS...]',
    summary: "run the repository's routing or overhead benchmark (in a checkout)",
    run: async (argv, ctx) => (await import('./commands/bench.js')).benchCommand(argv, ctx),
  },
  {
    name: 'demo',
    usage: '[-o FILE.wav]',
    summary: 'run a voice turn (stt -> chat -> tts) against local mock providers',
    run: async (argv, ctx) => (await import('./commands/demo.js')).demoCommand(argv, ctx),
  },
];
