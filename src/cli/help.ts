import { CLI_COMMANDS } from './commands.js';

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
    'Usage: voxroute <command> [options]',
    '',
    'Commands (not available yet; they come in a later release):',
    ...commands,
    '',
    'Options:',
    '  -h, --help     show this help',
    '  -v, --version  print the version',
    '',
  ].join('\n');
}
