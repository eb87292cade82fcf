import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Why `file` cannot be written, as an error code (`ENOENT`, `EACCES`, `ENOTDIR`, `EISDIR`), or
 * undefined when its folder exists and is writable and it is not a folder itself. The commands
 * that write a file (`tts -o`, `demo -o`) ask before any work, so a bad path costs nothing.
 */
export async function whyUnwritable(file: string): Promise<string | undefined> {
  try {
    await access(dirname(file), constants.W_OK);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? String(error);
  }
  const existing = await stat(file).catch(() => undefined);
  return existing?.isDirectory() ? 'EISDIR' : undefined;
}
