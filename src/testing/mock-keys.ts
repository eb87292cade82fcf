import type { ProviderConfig } from '../config/types.js';
import { SECRET_NAME } from '../errors/redact.js';
import { MOCK_ENV_FALLBACK } from './mock-env.js';

/**
 * The API key every mock of `startMockProviders` requires, and its returned config sends: as
 * `apiKey`, and as the value of every credential header whose variable was not set. A made-up
 * value that shares no word with ordinary text (a key's pieces are redacted from every error, so
 * a key holding a common word would hide it in messages and stack traces).
 */
export const MOCK_API_KEY = 'mock-4c1f9e2a7b3d5e60';

/**
 * The credentials of a provider (not SageMaker) pointed at its mock, for `startMockProviders`:
 * - `apiKey`: {@link MOCK_API_KEY} when the provider has one, or its kind requires one (every
 *   kind but `openai-compatible`, whose key is optional: a self-hosted server without one gets
 *   none, and its mock then checks none);
 * - `headers`: each credential header (a name holding auth, key, token, secret, cookie,
 *   signature, password or credential: `X-Api-Key`, `Authorization`) whose value is
 *   {@link MOCK_ENV_FALLBACK} (a variable `mockEnv()` did not find) or, in a config as written,
 *   `{ env: 'NAME' }` (never read) becomes {@link MOCK_API_KEY}; other headers, and a credential
 *   header whose variable was set or whose value is written out, are sent as they are.
 * `keyed` says whether the mock requires the key.
 */
export function mockCredentials(provider: ProviderConfig): {
  keyed: boolean;
  fields: { apiKey?: string; headers?: Record<string, unknown> };
} {
  const keyed = provider.kind !== 'openai-compatible' || provider.apiKey !== undefined;
  const fields: { apiKey?: string; headers?: Record<string, unknown> } = keyed
    ? { apiKey: MOCK_API_KEY }
    : {};
  const headers = (provider as { headers?: Record<string, unknown> }).headers;
  if (headers !== undefined && headers !== null && typeof headers === 'object') {
    const pointed: Record<string, unknown> = { ...headers };
    let changed = false;
    for (const [name, value] of Object.entries(headers))
      if (SECRET_NAME.test(name) && isPlaceholder(value)) {
        pointed[name] = MOCK_API_KEY;
        changed = true;
      }
    if (changed) fields.headers = pointed;
  }
  return { keyed, fields };
}

/** A value `mockEnv()` gave for an unset variable, or an `{ env: 'NAME' }` not yet read. */
function isPlaceholder(value: unknown): boolean {
  if (value === MOCK_ENV_FALLBACK) return true;
  return typeof value === 'object' && value !== null && typeof (value as { env?: unknown }).env === 'string';
}
