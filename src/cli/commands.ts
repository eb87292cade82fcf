/** One subcommand of the `voxroute` CLI, as listed by `voxroute --help`. */
export interface CliCommand {
  /** The word typed after `voxroute`, e.g. `'doctor'`. */
  readonly name: string;
  /** One line shown next to the name in the help text. */
  readonly summary: string;
}

/**
 * The subcommands of the `voxroute` CLI (DESIGN.md, "Layout": doctor, tts, stt, chat, bench,
 * demo), in the order the help lists them. None is implemented yet: the stub CLI names them so
 * that `voxroute --help` shows what is coming, and answers each with "not available yet".
 */
export const CLI_COMMANDS: readonly CliCommand[] = [
  { name: 'doctor', summary: 'check the config, credentials and reachability of each provider' },
  { name: 'tts', summary: 'speak text through the router and write the audio to a file' },
  { name: 'stt', summary: 'transcribe an audio file through the router' },
  { name: 'chat', summary: 'stream a chat reply through the router' },
  { name: 'bench', summary: "measure the router's overhead and each provider's latency" },
  { name: 'demo', summary: 'run a voice turn (stt -> chat -> tts) against local mock providers' },
];
