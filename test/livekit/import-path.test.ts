import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROBE_TEST_MS, ROOT as root, runProbe, sourceFiles } from '../helpers/import-probe.js';

describe('the interop packages stay off the main import path', () => {
  it(
    'importing voxroute loads none of ai, @ai-sdk/provider, @livekit/*; voxroute/ai-sdk loads nothing of them either',
    async () => {
      const loads = await runProbe('test/livekit/fixtures/interop-probe.mjs', { recordLoads: true });
      expect(loads).toEqual({
        afterMain: [],
        afterAiSdk: [], // types only: nothing of the AI SDK runs inside voxroute
        control: ['@ai-sdk/provider'],
      });
    },
    PROBE_TEST_MS,
  );

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
