import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

describe('the interop packages stay off the main import path', () => {
  it('importing voxroute loads none of ai, @ai-sdk/provider, @livekit/*; voxroute/ai-sdk loads nothing of them either', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'voxroute-interop-'));
    try {
      const { stdout } = await run(
        process.execPath,
        [
          '--import',
          './test/internal/fixtures/record-loads.mjs',
          'scripts/run-ts.mjs',
          'test/livekit/fixtures/interop-probe.mjs',
        ],
        { cwd: root, timeout: 60_000, env: { ...process.env, VOXROUTE_LOAD_LOG: join(dir, 'loads.log') } },
      );
      expect(JSON.parse(stdout)).toEqual({
        afterMain: [],
        afterAiSdk: [], // types only: nothing of the AI SDK runs inside voxroute
        control: ['@ai-sdk/provider'],
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('only src/livekit imports @livekit/* (and nothing imports src/livekit); src/ai-sdk imports @ai-sdk/provider for types only', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(join(root, 'src'))) {
      const rel = file.slice(root.length + 1);
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(
        /^\s*(?:import|export)\s+(type\s+)?[^;]*?from\s+'((?:@livekit|@ai-sdk)\/[^']+|ai)'/gm,
      )) {
        const [, typeOnly, pkg] = m;
        const allowed = pkg!.startsWith('@livekit/')
          ? rel.startsWith('src/livekit/')
          : rel.startsWith('src/ai-sdk/') && typeOnly;
        if (!allowed) offenders.push(`${rel}: ${pkg}`);
      }
      if (!rel.startsWith('src/livekit/') && /from\s+'[./]*\/livekit\//.test(text))
        offenders.push(`${rel}: src/livekit`);
    }
    expect(offenders).toEqual([]);
  });
});
