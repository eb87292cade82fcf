/**
 * Kind 3, resources after the work: a process that made a Cartesia WebSocket TTS call and did
 * not call router.close() exits as soon as its work is done, although the adapter keeps the
 * socket warm for the next call (keepWarmMs 10 minutes here): the idle socket is unref'd. The
 * call runs in a child process (only its own handles can keep it alive); the server speaks
 * Cartesia's TTS socket on its own (ws). The child's end is awaited as an event: a warm socket
 * that held the process would hold it past the test's timeout.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sendCartesiaContext } from '../cases/wire/cartesia-context.js';
import { pcmSignal, wsServer } from '../cases/wire/servers.js';

const ROOT = resolve(import.meta.dirname, '../..');
const AUDIO = pcmSignal(2400, 24_000, 1);
/** The child's keepWarmMs. */
const WARM_MS = 600_000;

/** A Cartesia TTS socket server; `ends` gets each connection's close code as the server saw it. */
async function cartesiaServer() {
  const ends: number[] = [];
  const wire = await wsServer((ws) => {
    ws.on('close', (code) => ends.push(code));
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as { context_id?: string; transcript?: string };
      if (!m.transcript) return;
      const context = m.context_id;
      sendCartesiaContext(ws, context, AUDIO);
    });
  });
  return { wire, ends };
}

/** Runs the child with the WebSocket `client`: its exit code, its stdout, and ms from its output to its exit. */
async function runChild(url: string, client: 'undici' | 'ws') {
  const child = spawn(
    process.execPath,
    ['scripts/run-ts.mjs', 'test/reliability/fixtures/warm-socket-call.ts', url, client],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let stdout = '';
  let printedAt = 0;
  child.stdout.on('data', (data: Buffer) => {
    stdout += String(data);
    printedAt = performance.now();
  });
  // 'close': the process exited and its stdout was read to the end ('exit' may come first).
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, afterWorkMs: performance.now() - printedAt };
}

describe('kind 3: a warm WebSocket does not keep the process alive', () => {
  for (const client of ['undici', 'ws'] as const) {
    it(`kind 3: a process with a warm Cartesia TTS socket (${client}) and no router.close() exits when its work is done`, async () => {
      const server = await cartesiaServer();
      const { code, stdout, afterWorkMs } = await runChild(server.wire.url, client);
      expect(code).toBe(0);
      expect(JSON.parse(stdout)).toEqual({ bytes: AUDIO.byteLength });
      // Before the warm socket's own timer (10 minutes) could have closed it.
      expect(afterWorkMs).toBeLessThan(WARM_MS);
      expect(server.wire.connections).toBe(1);
      // The socket was still warm when the process ended: no close frame came (1006), the
      // process simply went away with it.
      const socket = server.wire.sockets[0]!;
      if (!socket.closed) await once(socket, 'close');
      await new Promise<void>((done) => setImmediate(done));
      expect(server.ends).toEqual([1006]);
    }, 120_000);
  }
});
