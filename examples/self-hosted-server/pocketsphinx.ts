import { readFile } from 'node:fs/promises';
import type { PocketsphinxCli } from './engines.js';

/**
 * Arguments that make pocketsphinx decode the 16 kHz mono s16le WAV at `wavPath` and print one
 * line per utterance it recognised, with its log written to `logPath`:
 * - `continuous` (Debian 12's 0.8+5prealpha `pocketsphinx_continuous`, checked on Debian 12):
 *   `-infile FILE -logfn LOG`; each line is the plain text of an utterance, flushed as it is
 *   decoded.
 * - `v5` (pocketsphinx 5's `pocketsphinx`, not checked here: Debian 12 ships 5prealpha):
 *   `-logfn LOG live FILE`; each line is a JSON object whose `t` field is the text.
 */
export function pocketsphinxArgs(cli: PocketsphinxCli, wavPath: string, logPath: string): string[] {
  return cli === 'continuous'
    ? ['-infile', wavPath, '-logfn', logPath]
    : ['-logfn', logPath, 'live', wavPath];
}

/**
 * The recognised text of one output line of pocketsphinx, trimmed; undefined for a line with
 * no words. For `v5` a JSON line gives its `t` field; a line that is not JSON is taken as text.
 */
export function recognisedText(cli: PocketsphinxCli, line: string): string | undefined {
  let text = line.trim();
  if (cli === 'v5' && text.startsWith('{')) {
    try {
      const parsed = JSON.parse(text) as { t?: unknown };
      text = typeof parsed.t === 'string' ? parsed.t.trim() : '';
    } catch {
      // Not JSON after all: keep the line as text.
    }
  }
  return text === '' ? undefined : text;
}

/**
 * The last `ERROR`/`FATAL` line of a pocketsphinx log file (at most 200 characters), or '' when
 * there is none or the file cannot be read. Used for the message of a 500.
 */
export async function lastLogError(logPath: string): Promise<string> {
  let log: string;
  try {
    log = await readFile(logPath, 'utf8');
  } catch {
    return '';
  }
  const errors = log.split('\n').filter((line) => /^(ERROR|FATAL)/.test(line));
  return (errors.at(-1) ?? '').trim().slice(0, 200);
}
