import { CAPABILITIES } from './capability.js';
import { MID_STREAM_OF } from './route.js';

type Node = Record<string, unknown> & { properties?: Record<string, Node> };

/**
 * Adds to `schema` (configJsonSchema's, as zod wrote it) the checks of checkConfigReferences that
 * a JSON Schema can say, so that editors flag them too:
 * - a provider needs at least one of its kind's capability sections (`anyOf` of `required`);
 * - a route named "tts", "stt" or "chat" may only declare that capability and that `name`; a
 *   route of any other name must declare `capability`;
 * - a route's `midStream` is "error" or its capability's policy ("resume", "replay", "continue").
 * The route named tts, stt or chat becomes its own entry of `routes.properties` (a copy of the
 * route schema, narrowed); other names keep `additionalProperties`. What it cannot say: that a
 * route's providers exist and have its capability, that `weights`/`costs` name its providers,
 * that a weighted route gives one a weight above 0 (these depend on other keys' values), and that
 * header names differ in more than case. Changes `schema` in place.
 */
export function addCrossChecks(schema: Node): void {
  const providers = schema.properties?.providers?.additionalProperties as Node | undefined;
  for (const member of (providers?.oneOf as Node[] | undefined) ?? []) {
    const sections = CAPABILITIES.filter((capability) => member.properties?.[capability] !== undefined);
    member.anyOf = sections.map((capability) => ({ type: 'object', required: [capability] }));
  }
  const routes = schema.properties?.routes;
  const route = routes?.additionalProperties as Node | undefined;
  if (!routes || !route?.properties) return;
  const ownName: Record<string, Node> = {};
  for (const capability of CAPABILITIES) {
    const copy = structuredClone(route) as Node & { properties: Record<string, Node> };
    copy.properties.name = { ...copy.properties.name, const: capability };
    copy.properties.capability = { ...copy.properties.capability, const: capability };
    copy.properties.midStream = { ...copy.properties.midStream, enum: midStreamOf(capability) };
    ownName[capability] = copy;
  }
  routes.properties = ownName;
  route.required = [...((route.required as string[] | undefined) ?? []), 'capability'];
  route.allOf = CAPABILITIES.map((capability) => ({
    if: { type: 'object', required: ['capability'], properties: { capability: { const: capability } } },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword.
    then: { type: 'object', properties: { midStream: { enum: midStreamOf(capability) } } },
  }));
}

function midStreamOf(capability: (typeof CAPABILITIES)[number]): string[] {
  return ['error', MID_STREAM_OF[capability]];
}
