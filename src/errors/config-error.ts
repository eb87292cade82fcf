import { hasCode, VoxrouteError } from './voxroute-error.js';

/** One invalid field of a router config. */
export interface ConfigIssue {
  /** Path of the field, e.g. `['providers', 'ec2', 'baseUrl']`. */
  path: (string | number)[];
  /** What is wrong with it. */
  message: string;
}

/**
 * The router config is invalid. `issues` lists every bad field with its path; the message
 * names each path as `providers.ec2.baseUrl: ...`. Code `CONFIG_INVALID`. Never retryable.
 */
export class ConfigError extends VoxrouteError {
  // The class's own name, whatever a bundler renames it to (e.g. `_ConfigError`): `constructor.name`
  // reads 'ConfigError' in the built package too.
  static {
    Object.defineProperty(ConfigError, 'name', { value: 'ConfigError' });
  }

  override readonly code = 'CONFIG_INVALID';
  /** Every invalid field, with its path. */
  readonly issues: ConfigIssue[];
  /** The config file the issues are in, when the config came from a file. */
  readonly source: string | undefined;

  /**
   * Every invalid field goes in `issues` and the message lists them one a line (`path: message`,
   * `(root)` for an empty path). `options.source`: the config file, named in the message;
   * `options.cause`: the parser's own error, kept as the standard `cause`.
   */
  constructor(issues: ConfigIssue[], options: { cause?: unknown; source?: string } = {}) {
    const lines = issues.map((i) => `  ${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
    const where = options.source ? ` in ${options.source}` : '';
    super(`Invalid voxroute config${where}:\n${lines.join('\n')}`, { cause: options.cause });
    this.name = 'ConfigError';
    this.issues = issues;
    this.source = options.source;
  }

  static override isInstance(error: unknown): error is ConfigError {
    return hasCode(error, 'CONFIG_INVALID');
  }
}
