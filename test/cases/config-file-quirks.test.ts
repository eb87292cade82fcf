/**
 * Two quirks of config files. JSON: `JSON.parse` silently keeps the last of two values written
 * under one key, so a config with two "providers" objects (or a field written twice) lost one
 * of them without a word; it is now a ConfigError at the repeated key's path, with both
 * places. YAML: merge keys (`<<: *anchor`, `<<: [*a, *b]`) were taken as a key named `<<`
 * (YAML 1.2 has no merge keys unless asked), so the usual way to share provider settings was
 * rejected as an unknown key; they are now merged, keys written beside them winning. YAML
 * duplicates name their path too.
 */

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { findJsonDuplicateKeys } from '../../src/config/json-duplicates.js';
import { ConfigError } from '../../src/errors/config-error.js';

let tmp = '';
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'voxroute-quirks-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function write(name: string, text: string): Promise<string> {
  const file = join(tmp, name);
  await writeFile(file, text);
  return file;
}

async function rejection(file: string): Promise<ConfigError> {
  const error = await loadConfig(file, { env: {} }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

const PROVIDER = `{ "kind": "openai-compatible", "baseUrl": "http://127.0.0.1:8801/v1", "chat": { "models": { "fast": "m" } } }`;

describe('JSON: a key written twice in one object', () => {
  it('two top-level "providers" objects: one issue at "providers", both places named', async () => {
    const text = [
      '{',
      `  "providers": { "a": ${PROVIDER} },`,
      `  "providers": { "b": ${PROVIDER} },`,
      '  "routes": { "chat": { "providers": ["b"] } }',
      '}',
    ].join('\n');
    const file = await write('two-providers.json', text);
    expect(JSON.parse(text).providers).toHaveProperty('b'); // what JSON.parse alone would have kept
    const error = await rejection(file);
    expect(error.source).toBe(file);
    expect(error.issues).toEqual([
      {
        path: ['providers'],
        message:
          'duplicate key at line 3, column 3 (first written at line 2, column 3): JSON keeps only the last value',
      },
    ]);
    expect(error.message).toBe(
      `Invalid voxroute config in ${file}:\n  providers: duplicate key at line 3, column 3 (first written at line 2, column 3): JSON keeps only the last value`,
    );
  });

  it('a nested field and a field inside an array, each reported at its full path, in file order', async () => {
    const text = [
      '{',
      '  "providers": {',
      '    "a": {',
      '      "kind": "openai-compatible",',
      '      "baseUrl": "http://127.0.0.1:8801/v1",',
      '      "baseUrl": "http://127.0.0.1:8802/v1",',
      '      "chat": { "models": { "fast": "m" } }',
      '    }',
      '  },',
      '  "routes": { "chat": { "providers": ["a"], "hedge": { "afterMs": 1, "after\\u004ds": 2 } } },',
      '  "x": [ {}, { "k": 1, "k": 2 } ]',
      '}',
    ].join('\n');
    const error = await rejection(await write('nested.json', text));
    expect(error.issues).toEqual([
      {
        path: ['providers', 'a', 'baseUrl'],
        message:
          'duplicate key at line 6, column 7 (first written at line 5, column 7): JSON keeps only the last value',
      },
      {
        path: ['routes', 'chat', 'hedge', 'afterMs'],
        message:
          'duplicate key at line 10, column 70 (first written at line 10, column 56): JSON keeps only the last value',
      },
      {
        path: ['x', 1, 'k'],
        message:
          'duplicate key at line 11, column 24 (first written at line 11, column 16): JSON keeps only the last value',
      },
    ]);
  });

  it('the same name in different objects, and quotes or braces inside strings, are no duplicates', async () => {
    const text = `{ "providers": { "a": ${PROVIDER}, "b": ${PROVIDER.replace('"m"', '"a \\" }, \\"kind\\": {"')} },
  "routes": { "chat": { "providers": ["a", "b"] } } }`;
    const config = await loadConfig(await write('fine.json', text), { env: {} });
    expect(Object.keys(config.providers)).toEqual(['a', 'b']);
    expect(findJsonDuplicateKeys(text)).toEqual([]);
  });

  it('a duplicate key shaped like a credential is redacted in the path', async () => {
    const name = ['sk', 'proj', 'Zq8RtY2vW4xK9mN3pL7sB1cD5fG0hJ6a'].join('-');
    const text = `{ "providers": { "a": ${PROVIDER} }, "routes": { "chat": { "providers": ["a"] } },\n "weights": { "${name}": 1, "${name}": 2 } }`;
    const error = await rejection(await write('secret-dup.json', text));
    expect(error.issues).toEqual([
      {
        path: ['weights', '[redacted]'],
        message:
          'duplicate key at line 2, column 62 (first written at line 2, column 15): JSON keeps only the last value',
      },
    ]);
    expect(error.message).not.toContain(name);
  });

  it('the scanner: offsets of both occurrences, escapes decoded, a leading array', () => {
    expect(findJsonDuplicateKeys('[{"a":1,"\\u0061":2},{"a":[{"b":0,"b":1}]}]')).toEqual([
      { path: [0, 'a'], offset: 8, firstOffset: 2 },
      { path: [1, 'a', 0, 'b'], offset: 33, firstOffset: 27 },
    ]);
  });
});

describe('YAML: merge keys', () => {
  it('<<: *anchor merges a mapping; keys written beside it win', async () => {
    const file = await write(
      'merge.yaml',
      [
        'providers:',
        '  gpu-a: &gpu',
        '    kind: openai-compatible',
        '    baseUrl: http://10.0.0.5:8000/v1',
        '    chat: { models: { fast: llama } }',
        '  gpu-b:',
        '    <<: *gpu',
        '    baseUrl: http://10.0.0.6:8000/v1',
        'routes:',
        '  chat: { providers: [gpu-a, gpu-b] }',
      ].join('\n'),
    );
    const config = await loadConfig(file, { env: {} });
    const b = config.providers['gpu-b'] as { kind: string; baseUrl: string; chat: unknown };
    expect([b.kind, b.baseUrl, b.chat]).toEqual([
      'openai-compatible',
      'http://10.0.0.6:8000/v1',
      { models: { fast: 'llama' } },
    ]);
    expect((config.providers['gpu-a'] as { baseUrl: string }).baseUrl).toBe('http://10.0.0.5:8000/v1');
  });

  it('<<: [*a, *b] merges several; the first listed wins over later ones', async () => {
    const file = await write(
      'merge-list.yaml',
      [
        'providers:',
        '  a: &a { kind: openai-compatible, baseUrl: http://10.0.0.5:8000/v1, chat: { models: { fast: one } } }',
        '  b: &b { kind: openai-compatible, baseUrl: http://10.0.0.6:8000/v1, chat: { models: { fast: two } }, headers: { X-Team: b } }',
        '  c:',
        '    <<: [*a, *b]',
        'routes:',
        '  chat: { providers: [c] }',
      ].join('\n'),
    );
    const c = (await loadConfig(file, { env: {} })).providers.c as unknown as Record<string, unknown>;
    expect([c.baseUrl, c.chat, c.headers]).toEqual([
      'http://10.0.0.5:8000/v1',
      { models: { fast: 'one' } },
      { 'X-Team': 'b' },
    ]);
  });

  it('a merge of something that is not a mapping is a ConfigError at the root', async () => {
    const file = await write('merge-scalar.yaml', 'providers:\n  a:\n    <<: 5\nroutes: {}\n');
    const error = await rejection(file);
    expect(error.issues).toEqual([
      { path: [], message: 'invalid YAML: Merge sources must be maps or map aliases' },
    ]);
  });

  it('a YAML key written twice is reported at its path, as in JSON', async () => {
    const file = await write(
      'dup.yaml',
      [
        'providers:',
        '  a:',
        '    <<: { kind: openai-compatible }',
        '    baseUrl: http://10.0.0.5:8000/v1',
        '    baseUrl: http://10.0.0.6:8000/v1',
        'routes: {}',
        'routes: {}',
      ].join('\n'),
    );
    const error = await rejection(file);
    expect(error.issues).toEqual([
      {
        path: ['providers', 'a', 'baseUrl'],
        message:
          'duplicate key at line 5, column 5 (first written at line 4, column 5): YAML keys must be unique',
      },
      {
        path: ['routes'],
        message:
          'duplicate key at line 7, column 1 (first written at line 6, column 1): YAML keys must be unique',
      },
    ]);
  });
});
