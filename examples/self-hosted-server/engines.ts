import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { basename, delimiter, isAbsolute, join } from 'node:path';
import type { Readable } from 'node:stream';
import { ApiError } from './api-error.js';

/** The local engines the server drives. */
export type EngineName = 'espeak-ng' | 'pocketsphinx';

/**
 * Where to find the engine binaries: a command name looked up on `PATH`, or a path (anything
 * with a `/`). Defaults: `espeak-ng`; for pocketsphinx, `pocketsphinx_continuous` (Debian 12's
 * 5prealpha) and then `pocketsphinx` (pocketsphinx 5). A path to a file that does not exist
 * makes the matching endpoint answer 501, which is how tests simulate a machine without them.
 */
export interface EngineOptions {
  espeak?: string;
  pocketsphinx?: string;
}

/** Command-line flavour of a pocketsphinx binary: 5prealpha's `pocketsphinx_continuous`, or 5's `pocketsphinx`. */
export type PocketsphinxCli = 'continuous' | 'v5';

/** A binary found on disk. */
export interface ResolvedEngine {
  engine: EngineName;
  /** Absolute path of the executable. */
  path: string;
}

/** How one engine process ended: exit code or signal, or the error that kept it from starting. */
export interface EngineExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started (e.g. `ENOENT`, `EACCES`). */
  spawnError?: NodeJS.ErrnoException;
}

/**
 * One engine process the server started, reported to `onEngineRun` (for logs and tests).
 * `exited` resolves when the process has ended, for whatever reason.
 */
export interface EngineRun {
  engine: EngineName;
  pid: number | undefined;
  /** The arguments, without the binary. Holds the text to speak, never a credential. */
  args: readonly string[];
  exited: Promise<EngineExit>;
}

/** The Debian packages that provide each engine, for the 501 message. */
export const ENGINE_PACKAGES: Record<EngineName, string> = {
  'espeak-ng': 'espeak-ng',
  pocketsphinx: 'pocketsphinx pocketsphinx-en-us',
};

const DEFAULT_CANDIDATES: Record<EngineName, readonly string[]> = {
  'espeak-ng': ['espeak-ng'],
  pocketsphinx: ['pocketsphinx_continuous', 'pocketsphinx'],
};

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * Finds an executable: a name with a `/` is taken as a path (relative to the working
 * directory), any other name is looked up in each directory of `PATH`. Returns the absolute
 * path, or undefined when there is no such executable file.
 */
export async function findExecutable(
  nameOrPath: string,
  pathEnv = process.env.PATH ?? '',
): Promise<string | undefined> {
  if (nameOrPath.includes('/')) {
    const absolute = isAbsolute(nameOrPath) ? nameOrPath : join(process.cwd(), nameOrPath);
    return (await isExecutableFile(absolute)) ? absolute : undefined;
  }
  for (const dir of pathEnv.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, nameOrPath);
    if (await isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Resolves the binary of `engine` from `configured` (a name or path) or the defaults.
 * Throws ApiError 501 `engine_not_installed`, naming the Debian packages to install, when none
 * is found. Resolved on every request, so installing the packages needs no restart.
 */
export async function resolveEngine(engine: EngineName, configured?: string): Promise<ResolvedEngine> {
  for (const candidate of configured === undefined ? DEFAULT_CANDIDATES[engine] : [configured]) {
    const path = await findExecutable(candidate);
    if (path !== undefined) return { engine, path };
  }
  throw new ApiError(
    501,
    `This server has no ${engine} engine. Install it on the server with: sudo apt-get install -y ${ENGINE_PACKAGES[engine]}`,
    { code: 'engine_not_installed' },
  );
}

/** The pocketsphinx CLI flavour of a binary, by its file name: `pocketsphinx` is 5's, anything else 5prealpha's. */
export function pocketsphinxCli(path: string): PocketsphinxCli {
  return basename(path) === 'pocketsphinx' ? 'v5' : 'continuous';
}

/** A running engine process with piped stdout and stderr and an ignored stdin. */
export type EngineProcess = ChildProcessByStdio<null, Readable, Readable>;

/** A started engine process and a promise of how it ended (resolves after its stdio closed). */
export interface SpawnedEngine {
  child: EngineProcess;
  exited: Promise<EngineExit>;
}

/**
 * Starts engine processes (never through a shell: arguments go to the binary as they are),
 * keeps the set of running ones so the server can kill them on close, and reports each to
 * `onRun`.
 */
export class EngineSpawner {
  private readonly running = new Set<EngineProcess>();

  constructor(private readonly onRun?: (run: EngineRun) => void) {}

  /** Starts `resolved.path` with `args`; stdin is ignored, stdout and stderr are pipes. */
  spawn(resolved: ResolvedEngine, args: readonly string[]): SpawnedEngine {
    const child = spawn(resolved.path, args, { stdio: ['ignore', 'pipe', 'pipe'], shell: false });
    this.running.add(child);
    let spawnError: NodeJS.ErrnoException | undefined;
    // A spawn failure (ENOENT, EACCES) arrives as 'error', then 'close'.
    child.on('error', (error: NodeJS.ErrnoException) => {
      spawnError ??= error;
    });
    const exited = new Promise<EngineExit>((resolve) => {
      child.once('close', (code, signal) => {
        this.running.delete(child);
        resolve(spawnError === undefined ? { code, signal } : { code: null, signal: null, spawnError });
      });
    });
    this.onRun?.({ engine: resolved.engine, pid: child.pid, args, exited });
    return { child, exited };
  }

  /** How many engine processes are running now. */
  get size(): number {
    return this.running.size;
  }

  /** Kills every running engine process with SIGKILL. */
  killAll(): void {
    for (const child of this.running) child.kill('SIGKILL');
  }
}

/** Collects up to `limit` bytes (default 4096) of a stream as text, e.g. an engine's stderr. */
export function collectText(stream: Readable, limit = 4096): () => string {
  let text = '';
  stream.setEncoding('utf8');
  stream.on('data', (part: string) => {
    if (text.length < limit) text += part.slice(0, limit - text.length);
  });
  return () => text;
}
