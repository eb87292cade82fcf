import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, createRouter, loadConfig } from '../../src/index.js';
import { MOCK_API_KEY, MOCK_ENV_FALLBACK, mockEnv, startMockProviders } from '../../src/testing/index.js';

const YAML = `providers:
  gpu:
    kind: openai-compatible
    baseUrl: { env: GPU_URL }
    apiKey: { env: GPU_KEY }
    chat: { models: { fast: m } }
routes:
  chat: { providers: [gpu] }
`;

describe('mockEnv: a config file loads for the mocks without its variables set', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('loadConfig fails on unset variables; with mockEnv() the same file loads and the mocks serve it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'voxroute-mockenv-'));
    const file = join(dir, 'voxroute.config.yaml');
    writeFileSync(file, YAML);
    const without = await loadConfig(file, { env: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(ConfigError.isInstance(without) && without.issues.map((i) => i.path.join('.'))).toEqual([
      'providers.gpu.baseUrl',
      'providers.gpu.apiKey',
    ]);
    const config = await loadConfig(file, { env: mockEnv({ GPU_KEY: 'set-in-ci' }) });
    const gpu = config.providers.gpu as { baseUrl: string; apiKey?: string };
    // A set variable keeps its value; an unset one reads as the placeholder.
    expect([gpu.baseUrl, gpu.apiKey]).toEqual([MOCK_ENV_FALLBACK, 'set-in-ci']);
    const mocks = await startMockProviders(config, { providers: { gpu: { chat: 'Hello.' } } });
    const router = createRouter(mocks.config);
    try {
      let text = '';
      for await (const e of router.chat({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] }))
        if (e.type === 'text-delta') text += e.text;
      expect(text).toBe('Hello.');
      expect(mocks.mocks.gpu!.requests.map((r) => [r.endpoint, r.headers.authorization])).toEqual([
        ['chat', `Bearer ${MOCK_API_KEY}`],
      ]);
    } finally {
      await router.close();
      await mocks.close();
    }
  });

  it('a credential header read from an unset variable is sent as MOCK_API_KEY; no apiKey in the config adds no Authorization', async () => {
    dir = mkdtempSync(join(tmpdir(), 'voxroute-mockenv-'));
    const file = join(dir, 'voxroute.config.yaml');
    writeFileSync(
      file,
      `providers:
  gpu:
    kind: openai-compatible
    baseUrl: { env: GPU_URL }
    headers: { X-Tenant: { env: TENANT_ID }, X-Api-Key: { env: GPU_KEY } }
    chat: { models: { fast: m } }
routes:
  chat: { providers: [gpu] }
`,
    );
    const mocks = await startMockProviders(await loadConfig(file, { env: mockEnv({}) }), {
      providers: { gpu: { chat: 'Hello.' } },
    });
    const router = createRouter(mocks.config);
    try {
      let text = '';
      for await (const e of router.chat({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] }))
        if (e.type === 'text-delta') text += e.text;
      expect(text).toBe('Hello.');
      const { headers } = mocks.mocks.gpu!.requests[0]!;
      // A header that is no credential keeps the placeholder: set it with mockEnv({ TENANT_ID: ... }).
      expect([headers['x-api-key'], headers.authorization, headers['x-tenant']]).toEqual([
        MOCK_API_KEY,
        undefined,
        MOCK_ENV_FALLBACK,
      ]);
      expect('apiKey' in mocks.config.providers.gpu!).toBe(false);
    } finally {
      await router.close();
      await mocks.close();
    }
  });

  it('a config as written: an { env } credential header is not read and is sent as MOCK_API_KEY; a written one as it is', async () => {
    const mocks = await startMockProviders({
      providers: {
        gpu: {
          kind: 'openai-compatible',
          baseUrl: 'http://127.0.0.1:9/v1',
          headers: { Authorization: { env: 'VOXROUTE_TEST_UNSET_GPU_TOKEN' }, 'X-Org-Token': 'org-7' },
          chat: { models: { fast: 'm' } },
        },
      },
      routes: { chat: { providers: ['gpu'] } },
    });
    const router = createRouter(mocks.config);
    try {
      for await (const _ of router.chat({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] }))
        void _;
      const { headers } = mocks.mocks.gpu!.requests[0]!;
      expect([headers.authorization, headers['x-org-token']]).toEqual([MOCK_API_KEY, 'org-7']);
    } finally {
      await router.close();
      await mocks.close();
    }
  });
});
