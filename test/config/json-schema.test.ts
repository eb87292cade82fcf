import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configJsonSchema, providerKinds } from '../../src/config/index.js';
import type { Loose } from './helpers.js';

type Schema = Record<string, Loose>;

/**
 * A small structural check of `value` against `schema`: every object key must be declared
 * (properties, or additionalProperties as a schema), required keys present, const/enum
 * respected, and oneOf/anyOf must have exactly one / at least one matching member (besides the
 * schema's other keywords). Enough
 * to show the exported schema describes the example config without a validator library.
 */
function mismatches(schema: Schema, value: unknown, path = '$'): string[] {
  if (schema.oneOf) {
    const ok = (schema.oneOf as Schema[]).filter((s) => mismatches(s, value, path).length === 0).length;
    if (ok !== 1) return [`${path}: ${ok} oneOf members match`];
  }
  if (schema.anyOf) {
    const ok = (schema.anyOf as Schema[]).some((s) => mismatches(s, value, path).length === 0);
    if (!ok) return [`${path}: no anyOf member matches`];
  }
  if ('const' in schema && value !== schema.const) return [`${path}: not ${schema.const}`];
  if (schema.enum && !schema.enum.includes(value)) return [`${path}: not in enum`];
  if (schema.type === 'array') {
    if (!Array.isArray(value)) return [`${path}: not an array`];
    return value.flatMap((item, i) => mismatches(schema.items ?? {}, item, `${path}[${i}]`));
  }
  if (schema.type === 'object') {
    if (typeof value !== 'object' || value === null) return [`${path}: not an object`];
    const out: string[] = [];
    for (const key of schema.required ?? []) if (!(key in value)) out.push(`${path}.${key}: missing`);
    for (const [key, item] of Object.entries(value)) {
      const declared = schema.properties?.[key];
      if (declared) out.push(...mismatches(declared, item, `${path}.${key}`));
      else if (schema.additionalProperties === false) out.push(`${path}.${key}: not allowed`);
      else if (typeof schema.additionalProperties === 'object')
        out.push(...mismatches(schema.additionalProperties, item, `${path}.${key}`));
    }
    return out;
  }
  if (schema.type === 'string' && typeof value !== 'string') return [`${path}: not a string`];
  if (schema.type === 'integer' && !Number.isInteger(value)) return [`${path}: not an integer`];
  if (schema.type === 'boolean' && typeof value !== 'boolean') return [`${path}: not a boolean`];
  return [];
}

describe('configJsonSchema', () => {
  const schema = configJsonSchema() as Schema;

  it('describes a strict top-level object with providers and routes', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.type).toBe('object');
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(['providers', 'routes']);
    expect(Object.keys(schema.properties)).toEqual(['$schema', 'providers', 'routes', 'defaults', 'health']);
    const health = schema.properties.health;
    expect(health.additionalProperties).toBe(false);
    expect(health.required).toEqual(['store', 'url']);
    expect(health.properties.store.const).toBe('redis');
    expect(health.properties.keyPrefix.default).toBe('voxroute:');
  });

  it('has one strict member per provider kind, with input-side defaults and descriptions', () => {
    const members = schema.properties.providers.additionalProperties.oneOf as Schema[];
    expect(members.map((m) => m.properties.kind.const)).toEqual([...providerKinds()]);
    expect(new Set(members.map((m) => m.additionalProperties))).toEqual(new Set([false]));
    expect(members.slice(0, 2).map((m) => m.required)).toEqual([
      ['kind', 'apiKey'],
      ['kind', 'baseUrl'],
    ]);
    const [openai] = members;
    expect(openai?.properties.baseUrl.default).toBe('https://api.openai.com/v1');
    expect(openai?.properties.tts.properties.sampleRate.default).toBe(24000);
    const route = schema.properties.routes.additionalProperties;
    expect(route.additionalProperties).toBe(false);
    expect(route.properties.idleTimeoutMs).toMatchObject({ type: 'integer', default: 5000 });
    expect(route.properties.idleTimeoutMs.description).toContain('ms');
  });

  it('accepts the example YAML config and rejects it with an unknown key', async () => {
    const text = await readFile(new URL('../../examples/voxroute.config.yaml', import.meta.url), 'utf8');
    const example = parse(text);
    expect(mismatches(schema, example)).toEqual([]);
    example.routes.tts.retries = 3;
    example.providers['ec2-a'].kind = 'sagemaker';
    expect(mismatches(schema, example)).toEqual([
      '$.providers.ec2-a: 0 oneOf members match',
      '$.routes.tts.retries: not allowed',
    ]);
  });

  it('returns a fresh object each call', () => {
    const a = configJsonSchema();
    a.title = 'changed';
    expect(configJsonSchema().title).toBe('voxroute router config');
  });
});
