import { expect } from 'vitest';
import { ConfigError } from '../../src/index.js';

/** Runs `run`, expects it to throw a ConfigError, and returns its issues as `path: message`. */
export function configIssuesOf(run: () => unknown): string[] {
  let error: unknown;
  try {
    run();
  } catch (e) {
    error = e;
  }
  expect(ConfigError.isInstance(error)).toBe(true);
  return (error as ConfigError).issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}
