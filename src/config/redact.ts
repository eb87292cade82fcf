import type { ConfigIssue } from '../errors/config-error.js';
import { createErrorRedactor, redactText } from '../errors/redact.js';

/** Keys under which every string is treated as a secret when redacting error messages. */
const SECRET_KEY = /^(?:api_?key|headers|authorization|cookie|.*(?:secret|token|password|credential).*)$/i;

/** Shorter strings are not redacted: they would mangle ordinary words and are no real secret. */
const MIN_SECRET_LENGTH = 6;

/** What a redacted secret is replaced with in error messages. */
export const REDACTED = '[redacted]';

/**
 * Collects the literal secret values in a raw config: every string at or below a key that
 * names a secret (`apiKey`, `headers`, `token`, `password`, ...), longest first. Variable
 * names (`{ env: 'NAME' }`) are not collected.
 */
export function collectSecretLiterals(input: unknown): string[] {
  const found = new Set<string>();
  const visit = (value: unknown, secret: boolean, depth: number) => {
    if (depth > 32) return;
    if (typeof value === 'string') {
      if (secret && value.length >= MIN_SECRET_LENGTH) found.add(value);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, secret, depth + 1);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        // `{ env: 'NAME' }` names a variable; the name is not a secret.
        if (key !== 'env') visit(item, secret || SECRET_KEY.test(key), depth + 1);
      }
    }
  };
  visit(input, false, 0);
  return [...found].sort((a, b) => b.length - a.length);
}

/**
 * Replaces every literal secret of `input` (see collectSecretLiterals) by `[redacted]` in
 * the issues' messages and path segments: a last line of defence so that no message a
 * ConfigError builds ever holds a key, whatever a validator wrote.
 */
export function redactIssues(issues: ConfigIssue[], input: unknown): ConfigIssue[] {
  const secrets = collectSecretLiterals(input);
  if (secrets.length === 0) return issues;
  const scrub = (text: string) => secrets.reduce((acc, secret) => acc.split(secret).join(REDACTED), text);
  return issues.map((issue) => ({
    path: issue.path.map((segment) => (typeof segment === 'string' ? scrub(segment) : segment)),
    message: scrub(issue.message),
  }));
}

/** Environment variable names whose values are taken as secrets (`OPENAI_API_KEY`, `AWS_SESSION_TOKEN`, ...). */
const SECRET_ENV = /key|token|secret|password|credential|auth/i;

/** Shapes of well-known API keys and credentials, redacted even when no config names them. */
const KEY_SHAPES = [
  /\b(?:sk|pk|rk)-[A-Za-z0-9_-]{16,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\b(?:Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
];

/**
 * Removes secrets from the error of a config module that threw, in place (message, stack and
 * cause chain), before it becomes a ConfigError's cause: the values of environment variables
 * named like secrets, and anything shaped like a well-known API key or credential.
 */
export function redactModuleError<E>(error: E, env: Record<string, string | undefined> = process.env): E {
  const secrets = Object.entries(env)
    .filter(
      ([name, value]) =>
        SECRET_ENV.test(name) && typeof value === 'string' && value.length >= MIN_SECRET_LENGTH,
    )
    .map(([, value]) => value as string);
  const shapes = (text: string) => KEY_SHAPES.reduce((acc, shape) => acc.replace(shape, REDACTED), text);
  if (typeof error === 'string') return shapes(redactText(error, secrets)) as E;
  createErrorRedactor(secrets)(error);
  for (let e: unknown = error, i = 0; e instanceof Error && i < 8; e = e.cause, i++) {
    try {
      e.message = shapes(e.message);
      if (typeof e.stack === 'string') e.stack = shapes(e.stack);
    } catch {
      // frozen: left as is
    }
  }
  return error;
}
