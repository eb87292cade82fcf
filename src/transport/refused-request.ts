import { secretTextProblem } from '../config-fields/secret.js';
import { ConfigError } from '../errors/config-error.js';

/**
 * The error of a request the HTTP client cannot send at all, found before any byte leaves:
 * a ConfigError at `providers.<provider>` (the values of request headers come from the
 * provider's config: `apiKey`, `headers`, AWS credentials). Nothing reached the provider, so
 * the router ends the call with it and charges no provider (docs/decisions.md "A secret with a
 * line break is a config error, not trimmed"). `detail` must not quote a header value.
 */
export function refusedRequestError(provider: string, detail: string, cause?: unknown): ConfigError {
  return new ConfigError(
    [{ path: ['providers', provider], message: `the HTTP client cannot send the request: ${detail}` }],
    cause === undefined ? {} : { cause },
  );
}

/**
 * {@link refusedRequestError} for the first header of `headers` whose value holds a line break,
 * another control character, or a character past Latin-1 (what undici, node:http and fetch
 * refuse), naming the header, never its value; undefined when every value can be sent.
 * Checked before a request is handed to the wire, so both wires (undici and a fetch) fail alike.
 */
export function badHeaderError(
  provider: string,
  headers: Readonly<Record<string, string>> | undefined,
): ConfigError | undefined {
  if (headers === undefined) return undefined;
  for (const [name, value] of Object.entries(headers)) {
    const problem = secretTextProblem(value);
    if (problem !== undefined) return refusedRequestError(provider, `the value of header ${name} ${problem}`);
  }
  return undefined;
}
