import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type ResolvedConfig } from '../../src/config/index.js';
import { ConfigError } from '../../src/errors/config-error.js';
import { asOpenAi, RESOLVED_ESPEAK_TTS, rejectedConfigError, resolvedRoute } from './helpers.js';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const env = { FIXTURE_API_KEY: 'fixture-key-value' };
const SECRET = 'sk-fixture-literal-secret-0001';

const expected: ResolvedConfig = {
  providers: {
    local: {
      kind: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:8801/v1',
      apiKey: 'fixture-key-value',
      headers: {},
      chat: { models: { fast: 'voxroute-echo' } },
      tts: RESOLVED_ESPEAK_TTS,
    },
  },
  routes: {
    tts: resolvedRoute('tts', 'tts', ['local']),
    'chat-fast': resolvedRoute('chat-fast', 'chat', ['local'], { strategy: 'priority', idleTimeoutMs: 1000 }),
  },
};

let tmp = '';
async function tmpFile(name: string, text: string): Promise<string> {
  const file = join(tmp, name);
  await writeFile(file, text);
  return file;
}

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'voxroute-config-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('loadConfig: each format', () => {
  for (const name of ['valid.ts', 'valid.mjs', 'valid.cjs', 'valid.json', 'valid.yaml']) {
    it(`loads ${name} to the same resolved config`, async () => {
      expect(await loadConfig(join(fixtures, name), { env })).toEqual(expected);
    });
  }

  it('resolves a relative path from process.cwd(), or from options.cwd', async () => {
    const relative = 'test/config/fixtures/valid.yaml';
    expect(resolve(process.cwd(), relative)).toBe(join(fixtures, 'valid.yaml'));
    expect(await loadConfig(relative, { env })).toEqual(expected);
    expect(await loadConfig('valid.json', { env, cwd: fixtures })).toEqual(expected);
  });

  it('reads .yml, .mts and .cts files too', async () => {
    const yaml = await tmpFile(
      'copy.yml',
      'providers:\n  a: { kind: openai, apiKey: k-123, chat: { models: { m: gpt } } }\nroutes: {}\n',
    );
    expect(asOpenAi((await loadConfig(yaml)).providers.a).baseUrl).toBe('https://api.openai.com/v1');
    const mts = await tmpFile(
      'copy.mts',
      "const kind: 'openai' = 'openai';\nexport default { providers: { a: { kind, apiKey: 'k', chat: { models: { m: 'x' } } } }, routes: {} };\n",
    );
    expect((await loadConfig(mts)).providers.a?.kind).toBe('openai');
    const cts = await tmpFile(
      'copy.cts',
      "const kind: string = 'openai';\nexport default { providers: { b: { kind, apiKey: 'k', chat: { models: { m: 'x' } } } }, routes: {} };\n",
    );
    expect(Object.keys((await loadConfig(cts)).providers)).toEqual(['b']);
  });

  it('re-reads a TypeScript config that changed', async () => {
    const file = await tmpFile(
      'changing.ts',
      "export default { providers: { one: { kind: 'openai', apiKey: 'k', chat: { models: { m: 'x' } } } }, routes: {} };\n",
    );
    expect(Object.keys((await loadConfig(file)).providers)).toEqual(['one']);
    await writeFile(
      file,
      "export default { providers: { two: { kind: 'openai', apiKey: 'k', chat: { models: { m: 'x' } } } }, routes: {} };\n",
    );
    expect(Object.keys((await loadConfig(file)).providers)).toEqual(['two']);
  });

  it('maps bare imports of a TypeScript config with options.alias', async () => {
    const file = await tmpFile(
      'aliased.ts',
      "import { defineConfig } from 'voxroute-config-alias';\nexport default defineConfig({ providers: { a: { kind: 'openai', apiKey: 'k', tts: { voices: { v: 'alloy' } } } }, routes: { tts: { providers: ['a'] } } });\n",
    );
    const alias = {
      'voxroute-config-alias': fileURLToPath(new URL('../../src/config/index.ts', import.meta.url)),
    };
    expect((await loadConfig(file, { alias })).routes.tts?.providers).toEqual(['a']);
    const error = await rejectedConfigError(loadConfig(file));
    expect(error.issues).toEqual([
      { path: [], message: expect.stringMatching(/^could not load the module: .*voxroute-config-alias/) },
    ]);
  });
});

describe('loadConfig: errors name the file', () => {
  it('reports an invalid config with every issue path, the file, and no literal secret', async () => {
    const file = join(fixtures, 'invalid.yaml');
    const error = await rejectedConfigError(loadConfig(file));
    expect(error.message.split('\n')[0]).toBe(`Invalid voxroute config in ${file}:`);
    expect(error.issues).toEqual([
      { path: ['providers', 'leaky', 'baseUrl'], message: 'must be an http:// or https:// URL' },
      {
        path: ['providers', 'leaky', 'tts', 'sampleRate'],
        message: 'expected a number, got a string',
      },
      {
        path: ['routes', 'tts', 'providers', 1],
        message: 'unknown provider "missing"; the config has "leaky"',
      },
    ]);
    expect(error.message).not.toContain(SECRET);
  });

  it('reports a missing file', async () => {
    const file = join(tmp, 'nope.yaml');
    const error = await rejectedConfigError(loadConfig(file));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.issues).toEqual([{ path: [], message: 'file not found' }]);
    expect(error.message).toBe(`Invalid voxroute config in ${file}:\n  (root): file not found`);
  });

  it('reports a directory and an unsupported extension', async () => {
    const dir = join(tmp, 'dir.json');
    await mkdir(dir, { recursive: true });
    expect((await rejectedConfigError(loadConfig(dir))).issues).toEqual([
      { path: [], message: 'not a file' },
    ]);
    const toml = await tmpFile('config.toml', 'a = 1\n');
    const error = await rejectedConfigError(loadConfig(toml));
    expect(error.issues[0]?.message).toBe(
      'unsupported file extension ".toml": use one of .ts, .mts, .cts, .mjs, .js, .cjs, .json, .yaml, .yml',
    );
    expect(error.message).toContain(toml);
  });

  it('reports invalid YAML with its line and column, without quoting the file', async () => {
    const file = await tmpFile('broken.yaml', `providers:\n  a:\n    apiKey: [${SECRET}\n    kind: openai\n`);
    const error = await rejectedConfigError(loadConfig(file));
    expect(error.issues).toEqual([
      { path: [], message: expect.stringMatching(/^invalid YAML: .* at line \d+, column \d+$/) },
    ]);
    expect(error.message).toContain(file);
    expect(error.message).not.toContain(SECRET);
    expect(error.cause).toBeUndefined();
  });

  it('reports duplicate YAML keys at their path', async () => {
    const file = await tmpFile('dup.yaml', 'providers: {}\nroutes: {}\nroutes: {}\n');
    const error = await rejectedConfigError(loadConfig(file));
    expect(error.issues).toEqual([
      {
        path: ['routes'],
        message:
          'duplicate key at line 3, column 1 (first written at line 2, column 1): YAML keys must be unique',
      },
    ]);
  });

  it('reports invalid JSON with its position, without quoting the file', async () => {
    const badComma = await tmpFile('comma.json', `{\n  "apiKey": "${SECRET}"\n  "kind": "openai"\n}\n`);
    const first = await rejectedConfigError(loadConfig(badComma));
    expect(first.issues).toEqual([
      { path: [], message: expect.stringMatching(/^invalid JSON: .* at line 3, column 3$/) },
    ]);
    const bareWord = await tmpFile('bare.json', `{"apiKey": ${SECRET}}`);
    const second = await rejectedConfigError(loadConfig(bareWord));
    expect(second.issues).toEqual([{ path: [], message: 'invalid JSON' }]);
    for (const error of [first, second]) {
      expect(error.message).not.toContain(SECRET);
      expect(error.cause).toBeUndefined();
    }
  });

  it('reports a TypeScript config that does not compile or that throws, keeping the cause', async () => {
    const broken = await tmpFile('broken.ts', 'export default { providers: , };\n');
    const compileError = await rejectedConfigError(loadConfig(broken));
    expect(compileError.issues).toEqual([
      { path: [], message: expect.stringMatching(/^could not load the module: .+/) },
    ]);
    expect(compileError.message).toContain(broken);
    expect(compileError.cause).toBeInstanceOf(Error);

    const throwing = await tmpFile('throws.mjs', "throw new RangeError('config exploded');\n");
    const thrown = await rejectedConfigError(loadConfig(throwing));
    expect(thrown.issues).toEqual([
      { path: [], message: 'could not load the module: RangeError: config exploded' },
    ]);
    expect((thrown.cause as Error).message).toBe('config exploded');
  });

  it('reports a module without a default export', async () => {
    for (const name of ['named.mjs', 'named.ts']) {
      const file = await tmpFile(name, 'export const config = { providers: {}, routes: {} };\n');
      const error = await rejectedConfigError(loadConfig(file));
      expect(error.issues).toEqual([
        { path: [], message: 'the module has no default export: use `export default defineConfig({ ... })`' },
      ]);
      expect(error.message).toContain(file);
    }
  });

  it('reports an unset environment variable at the secret path, naming the file', async () => {
    const file = join(fixtures, 'valid.ts');
    const error = await rejectedConfigError(loadConfig(file, { env: {} }));
    expect(error.issues).toEqual([
      { path: ['providers', 'local', 'apiKey'], message: 'environment variable FIXTURE_API_KEY is not set' },
    ]);
    expect(error.message).toContain(file);
  });
});
