import { lazySchema, zod } from '../internal/zod.js';
import { checkConfigReferences } from './cross-checks.js';
import { healthSchema } from './health.js';
import { providerSchema } from './provider-schema.js';
import { routeDefaultsSchema, routeSchema } from './route.js';

/**
 * Returns the zod schema of the router config, the file users write (docs/config.md
 * in the repository); built on the first call, the same object afterwards. Objects are strict (an
 * unknown key is an error) and the cross-field checks of {@link checkConfigReferences} run
 * as part of it, even when other fields are invalid. Parsing applies field defaults;
 * secrets come out as strings or EnvSecretRef, which parseConfig then resolves.
 */
export const routerConfigSchema = lazySchema((z) =>
  z
    .strictObject({
      /** URL or path of this JSON Schema, for editors. Ignored by voxroute. */
      $schema: z
        .string()
        .optional()
        .describe('URL or path of this JSON Schema, for editors. Ignored by voxroute.'),
      /** The providers, by a name of your choice (used in routes, errors, events and stats). */
      providers: z
        .record(nameSchema(), providerSchema())
        .refine((providers) => Object.keys(providers).length > 0, {
          message: 'must define at least one provider',
        })
        .describe('The providers, by a name of your choice (used in routes, errors, events and stats).')
        // The refine's rule, for the JSON Schema.
        .meta({ minProperties: 1 }),
      /**
       * The routes, by name. "tts", "stt" and "chat" serve calls that give no `route`; other names are chosen
       * with a request's `route`.
       */
      routes: z
        .record(nameSchema(), routeSchema())
        .describe(
          'The routes, by name. "tts", "stt" and "chat" serve calls that give no `route`; other names are chosen with a request\'s `route`.',
        ),
      /** Settings that apply to every route unless the route sets its own. */
      defaults: z
        .strictObject({
          /**
           * Route settings (strategy, deadlines, hedging, `midStream`, ...) that every route takes
           * unless it sets its own; not `providers`, `name` or `capability`.
           */
          routes: routeDefaultsSchema().optional(),
        })
        .optional()
        .describe('Settings that apply to every route unless the route sets its own.'),
      /**
       * Fleet-shared provider health, `{ store: 'redis', url, keyPrefix? }`: breaker openings,
       * Retry-After cooldowns and latency summaries shared by every router that names the same
       * Redis (or Valkey) server, through the optional ioredis peer dependency. `url` is a secret
       * (a string or `{ env: 'NAME' }`); `keyPrefix` defaults to `"voxroute:"`. Omitted: each
       * router keeps its own health.
       */
      health: healthSchema().optional(),
    })
    .superRefine(checkConfigReferences, { when: () => true })
    .describe('voxroute router config: providers, and the routes that choose among them.'),
);

function nameSchema() {
  return zod().string().min(1, 'must not be empty');
}
