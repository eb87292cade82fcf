import { readFileSync } from 'node:fs';

/**
 * Reads the `version` field of voxroute's own package.json at run time.
 *
 * The file is found relative to this module: `../../package.json` from both `src/cli/*.ts`
 * (run from source through jiti) and the built `dist/cli/main.js` (tsup bundles this module
 * into it), which keeps the CLI free of a JSON import and of a copy of the version.
 *
 * @param moduleUrl URL of the module to resolve from. Default: this module's `import.meta.url`.
 * @returns The version string, e.g. `'0.1.0'`.
 * @throws Error when the file cannot be read or has no string `version` (a broken install).
 */
export function readPackageVersion(moduleUrl: string | URL = import.meta.url): string {
  const file = new URL('../../package.json', moduleUrl);
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const version = (parsed as { version?: unknown } | null)?.version;
  if (typeof version !== 'string') {
    throw new Error(`voxroute: no version in ${file.pathname}`);
  }
  return version;
}
