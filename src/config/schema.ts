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
      $schema: z
        .string()
        .optional()
        .describe('URL or path of this JSON Schema, for editors. Ignored by voxroute.'),
      providers: z
        .record(nameSchema(), providerSchema())
        .refine((providers) => Object.keys(providers).length > 0, {
          message: 'must define at least one provider',
        })
        .describe('The providers, by a name of your choice (used in routes, errors, events and stats).'),
      routes: z
        .record(nameSchema(), routeSchema())
        .describe(
          'The routes, by name. "tts", "stt" and "chat" serve calls that give no `route`; other names are chosen with a request\'s `route`.',
        ),
      defaults: z
        .strictObject({ routes: routeDefaultsSchema().optional() })
        .optional()
        .describe('Settings that apply to every route unless the route sets its own.'),
      health: healthSchema().optional(),
    })
    .superRefine(checkConfigReferences, { when: () => true })
    .describe('voxroute router config: providers, and the routes that choose among them.'),
);

function nameSchema() {
  return zod().string().min(1, 'must not be empty');
}
