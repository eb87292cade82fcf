import { secretSchema } from '../config-fields/secret.js';
import type { ConfigIssue } from '../errors/config-error.js';
import { lazySchema } from '../internal/zod.js';

/** Default `health.keyPrefix`: the prefix of every key and pub/sub channel voxroute uses. */
export const DEFAULT_HEALTH_KEY_PREFIX = 'voxroute:';

/**
 * Schema of the router config's optional `health` section: fleet-shared provider health on a
 * Redis (or Valkey) server, `{ store: 'redis', url, keyPrefix? }`. `url` is a secret (a Redis
 * URL may carry a password): a literal `redis://` / `rediss://` URL or `{ env: 'NAME' }`.
 */
export const healthSchema = lazySchema((z) =>
  z
    .strictObject({
      /** The shared store: "redis" (Redis or Valkey, through the optional ioredis peer dependency). */
      store: z
        .literal('redis', { error: 'must be "redis" (the only shared store voxroute supports)' })
        .describe(
          'The shared store: "redis" (Redis or Valkey, through the optional ioredis peer dependency).',
        ),
      /**
       * URL of the Redis server, redis://[:password@]host[:port][/db] or rediss:// for TLS; a string or
       * { env: "NAME" }.
       */
      url: secretSchema(
        'URL of the Redis server, redis://[:password@]host[:port][/db] or rediss:// for TLS; a string or { env: "NAME" }.',
      )
        .superRefine((url, ctx) => {
          // A literal URL is checked with the rest of the config, so its issue is listed with the
          // others; one read from { env } is checked once read (resolveConfig).
          if (typeof url !== 'string') return;
          const issues: ConfigIssue[] = [];
          checkHealthUrl(url, issues);
          for (const issue of issues) ctx.addIssue({ code: 'custom', message: issue.message });
        })
        // checkHealthUrl's rule for a literal URL, for the JSON Schema (an empty host aside).
        .meta({
          if: { type: 'string' },
          // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword.
          then: { type: 'string', pattern: '^ *[Rr][Ee][Dd][Ii][Ss][Ss]?://[^/?#]' },
        }),
      /** Prefix of every key and pub/sub channel voxroute writes. Default "voxroute:". */
      keyPrefix: z
        .string()
        .min(1, 'must not be empty')
        .max(64, 'must be at most 64 characters')
        .default(DEFAULT_HEALTH_KEY_PREFIX)
        .describe('Prefix of every key and pub/sub channel voxroute writes. Default "voxroute:".'),
    })
    .describe(
      'Fleet-shared provider health: breaker openings, Retry-After cooldowns and latency summaries shared by every router that names the same store. Never on the call path.',
    ),
);

/** The `health` section as the router uses it: the URL read from the environment if it named one. */
export interface ResolvedHealthConfig {
  store: 'redis';
  /** The Redis URL. A secret: never logged, never in an error, an event or the store. */
  url: string;
  keyPrefix: string;
}

/**
 * Checks the resolved `health.url` (after `{ env }` was read): a `redis://` or `rediss://`
 * URL, whose user name and password, if any, decode (ioredis decodes them with
 * `decodeURIComponent`, which throws a URIError on a `%` not followed by two hex digits, as in
 * a password holding a literal `%`). Pushes an issue at `['health', 'url']` that never quotes
 * the value.
 */
export function checkHealthUrl(url: string | undefined, issues: ConfigIssue[]): void {
  if (url === undefined) return;
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') || parsed.hostname === '')
    issues.push({ path: ['health', 'url'], message: 'must be a redis:// or rediss:// URL with a host' });
  else if (!decodes(parsed.username) || !decodes(parsed.password))
    issues.push({
      path: ['health', 'url'],
      message:
        'the user name or password holds a bad % escape (each % must start a %XX escape of UTF-8 bytes: write a literal % as %25)',
    });
}

/** Whether `text` percent-decodes: every `%` starts an escape of two hex digits, of valid UTF-8. */
function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}
