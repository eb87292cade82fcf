/**
 * Kind 7: the built package works under `node -e`, where Node defines a global `__filename`
 * (`'[eval]'`) that is not the module's own: createRouter() and parseConfig() (which load zod on
 * first use) must not throw ERR_INVALID_ARG_VALUE, whether the eval imports the ESM build,
 * requires the CommonJS build, or is itself a module (`--input-type=module`).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, root } from '../cli/built-bin.js';

const run = promisify(execFile);

const CONFIG = `{
  providers: { o: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', chat: { models: { fast: 'm' } } } },
  routes: { chat: { providers: ['o'] } },
}`;

/** Script body given `api` (the package's exports): prints what createRouter and parseConfig gave. */
const BODY = `
  const config = api.parseConfig(${CONFIG});
  const router = api.createRouter(api.defineConfig(${CONFIG}));
  console.log(JSON.stringify({ providers: Object.keys(config.providers), chat: typeof router.chat }));
  return router.close();
`;

async function evalNode(args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, args, { cwd: root, encoding: 'utf8' });
}

const EXPECTED = `${JSON.stringify({ providers: ['o'], chat: 'function' })}\n`;

describe('kind 7: the built package under node -e', () => {
  beforeAll(() => ensureBuilt(), 180_000);

  it('node -e importing the ESM build', async () => {
    const out = await evalNode([
      '-e',
      `import('./dist/index.js').then(async (api) => { ${BODY} }).catch((e) => { console.error(e.code, e.message); process.exit(1); });`,
    ]);
    expect(out.stderr).toBe('');
    expect(out.stdout).toBe(EXPECTED);
  });

  it('node -e requiring the CommonJS build', async () => {
    const out = await evalNode([
      '-e',
      `(async () => { const api = require('./dist/index.cjs'); ${BODY} })().catch((e) => { console.error(e.code, e.message); process.exit(1); });`,
    ]);
    expect(out.stderr).toBe('');
    expect(out.stdout).toBe(EXPECTED);
  });

  it('node --input-type=module -e importing the ESM build', async () => {
    const out = await evalNode([
      '--input-type=module',
      '-e',
      `import * as api from './dist/index.js'; await (async () => { ${BODY} })();`,
    ]);
    expect(out.stderr).toBe('');
    expect(out.stdout).toBe(EXPECTED);
  });
});
