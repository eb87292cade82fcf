import { CLI_COMMANDS, type CliCommand } from './commands.js';
import { DEFAULT_CONFIG_PATTERN } from './config-file.js';

/**
 * The text of `voxroute --help` (and of `voxroute` with no arguments), ending in a newline.
 *
 * @param version The package version shown on the first line, e.g. `'0.1.0'`.
 */
export function formatHelp(version: string): string {
  const width = Math.max(...CLI_COMMANDS.map((c) => c.name.length));
  const commands = CLI_COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    `voxroute ${version}: route streaming speech-to-text, chat and text-to-speech across providers`,
    '',
    'Usage: voxroute <command> [options]     (voxroute <command> --help for its options)',
    '',
    'Commands:',
    ...commands,
    '',
    'Options:',
    '  -h, --help     show this help',
    '  -v, --version  print the version',
    '',
    'A command reads the config named by -c/--config, else $VOXROUTE_CONFIG, else',
    `${DEFAULT_CONFIG_PATTERN} in the working folder.`,
    'Exit codes: 0 ok, 1 failed (providers, unhealthy route), 2 usage, 3 config, 4 file, 5 unavailable.',
    '',
  ].join('\n');
}

/** The text of `voxroute <command> --help`. */
export function formatCommandHelp(command: CliCommand): string {
  return `Usage: voxroute ${command.name} ${command.usage}\n\n${command.summary}\n`;
}
