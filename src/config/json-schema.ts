import { zod } from '../internal/zod.js';
import { addCrossChecks } from './json-schema-cross-checks.js';
import { routerConfigSchema } from './schema.js';

/**
 * JSON Schema (draft 2020-12) of the router config as a user writes it (the input side:
 * fields with defaults are optional, secrets may be `{ env }`), with every field's
 * description, for editors checking `voxroute.config.yaml`/`.json`. It states every rule of
 * parseConfig that a JSON Schema can (ranges, lengths, patterns, non-empty maps, unique route
 * providers, and the cross-field rules of addCrossChecks); what it cannot (a route's providers
 * exist and have its capability, the keys of `weights`/`costs`, a weighted route's weights,
 * header names equal up to case, a language being a registered one, a SageMaker codec being
 * registered) only parseConfig checks. Returns a new object on each call.
 */
export function configJsonSchema(): Record<string, unknown> {
  const schema = zod().toJSONSchema(routerConfigSchema(), {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    // zod leaves out the default of a field whose schema has a transform anywhere inside
    // (a URL that may be `{ env }`), as the default is an output value; ours are valid input.
    override: ({ zodSchema, jsonSchema }) => {
      const def = (zodSchema as unknown as { _zod: { def: { type: string; defaultValue?: unknown } } })._zod
        .def;
      if (def.type === 'default' && !('default' in jsonSchema) && typeof def.defaultValue === 'string')
        jsonSchema.default = def.defaultValue;
    },
  }) as Record<string, unknown>;
  addCrossChecks(schema);
  return { title: 'voxroute router config', ...schema };
}
