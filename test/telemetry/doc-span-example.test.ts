/**
 * The Spans example of docs/telemetry.md, run as written as a script of its own, against a
 * loopback mock provider: its spans reach the exporter before the process exits. With a
 * BatchSpanProcessor and no `shutdown()`, a script that ends within the processor's 5 s delay
 * exited with its spans unexported (nothing printed).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createOpenAiCompatibleMock, type MockServer, startMockServer } from '../../src/testing/index.js';
import { PROBE_HANG_MS, PROBE_TEST_MS } from '../helpers/import-probe.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = join(root, '.scratch', `telemetry-doc-${process.pid}`);
let server: MockServer | undefined;

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The first ```ts block after the `## Spans` heading of docs/telemetry.md. */
function spansExample(): string {
  const page = readFileSync(join(root, 'docs/telemetry.md'), 'utf8');
  const section = page.slice(page.indexOf('## Spans'));
  const block = /```ts\n([\s\S]*?)\n```/.exec(section);
  if (!block) throw new Error('no ts block under ## Spans in docs/telemetry.md');
  return block[1]!;
}

describe('docs/telemetry.md: the Spans example', () => {
  // A hang guard, not a speed check: the script loads the sources and OpenTelemetry through
  // jiti, over 30 s of wall time on a loaded 2-core machine (see PROBE_HANG_MS).
  it('exports its spans before a short script exits', { timeout: PROBE_TEST_MS }, async () => {
    server = await startMockServer({ provider: createOpenAiCompatibleMock() });
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'voxroute.config.yaml'),
      `providers:\n  local:\n    kind: openai-compatible\n    baseUrl: ${server.url}/v1\n    tts: { model: tts-1, voices: { agent: alloy } }\nroutes:\n  tts: { providers: [local], connectTimeoutMs: 60000, firstChunkTimeoutMs: false, idleTimeoutMs: 60000 }\n`,
    );
    writeFileSync(join(dir, 'example.ts'), spansExample());
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(root, 'scripts/run-ts.mjs'), join(dir, 'example.ts')],
      { cwd: dir, encoding: 'latin1', maxBuffer: 64 * 1024 * 1024, timeout: PROBE_HANG_MS },
    );
    // The ConsoleSpanExporter prints each span's name and attributes.
    expect(stdout).toContain("name: 'voxroute.tts'");
    expect(stdout).toContain("'voxroute.provider': 'local'");
  });
});
