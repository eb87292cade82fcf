/** Where the CLI writes, reads and what it reports as its version; injected so tests run it in-process. */
export interface CliContext {
  /** The package version, e.g. `'0.1.0'`. */
  readonly version: string;
  /** Writes text to standard output, as given (the CLI supplies the newlines). */
  readonly stdout: (text: string) => void;
  /** Writes text to standard error, as given (the CLI supplies the newlines). */
  readonly stderr: (text: string) => void;
  /** Writes bytes to standard output (raw audio); resolves once they are handed on. Default: none. */
  readonly stdoutBytes?: (data: Uint8Array) => Promise<void>;
  /** True when standard output is a terminal (raw audio is then refused). Default false. */
  readonly stdoutIsTTY?: boolean;
  /** Folder relative paths resolve from. Default `process.cwd()`. */
  readonly cwd?: string;
  /** Environment for `{ env }` config values and VOXROUTE_CONFIG. Default `process.env`. */
  readonly env?: Record<string, string | undefined>;
  /** Aborted to stop a long-running command (`mock`): SIGINT/SIGTERM in the real process. */
  readonly signal?: AbortSignal;
  /** Milliseconds since some fixed point, for progress and timings. Default `performance.now`. */
  readonly now?: () => number;
}
