/**
 * router.close() after a Cartesia WebSocket TTS call, whose socket the adapter keeps warm and
 * unref'd: close() waits for that socket's close handshake, which must still complete (or be cut
 * at the close timeout) in a process with nothing else to do. Before the fix the event loop
 * emptied first: Node exited with code 13 (unsettled top-level await) and the code after
 * `await router.close()` never ran. The router runs in a child process (only its own handles can
 * keep it alive); the server speaks Cartesia's TTS socket on its own (ws).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sendCartesiaContext } from './wire/cartesia-context.js';
import { pcmSignal, wsServer } from './wire/servers.js';

const ROOT = resolve(import.meta.dirname, '../..');
const AUDIO = pcmSignal(2400, 24_000, 1);

/**
 * A Cartesia TTS socket server. `ends` gets each connection's close code as the server saw it.
 * `answerClose: false` stops reading the socket once the context is done, so the client's close
 * frame is never read nor answered.
 */
async function cartesiaServer(answerClose: boolean) {
  const ends: number[] = [];
  const wire = await wsServer((ws, req) => {
    ws.on('close', (code) => ends.push(code));
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as { context_id?: string; transcript?: string };
      if (!m.transcript) return;
      sendCartesiaContext(ws, m.context_id, AUDIO);
      if (!answerClose) req.socket.pause();
    });
  });
  return { wire, ends };
}

async function runChild(url: string, client: 'undici' | 'ws') {
  const child = spawn(
    process.execPath,
    ['scripts/run-ts.mjs', 'test/cases/fixtures/warm-socket-close.ts', url, client],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let stdout = '';
  child.stdout.on('data', (data: Buffer) => {
    stdout += String(data);
  });
  // 'close': the process exited and its stdout was read to the end.
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout };
}

describe("router.close() settles with a warm (unref'd) WebSocket", () => {
  for (const client of ['undici', 'ws'] as const) {
    it(`close() of a router holding a warm Cartesia TTS socket (${client}) settles, and the process exits 0`, async () => {
      const server = await cartesiaServer(true);
      const { code, stdout } = await runChild(server.wire.url, client);
      expect(stdout).toBe(`${JSON.stringify({ bytes: AUDIO.byteLength })}\nclosed\n`);
      expect(code).toBe(0);
      expect(server.wire.connections).toBe(1);
      const socket = server.wire.sockets[0]!;
      if (!socket.closed) await once(socket, 'close');
      await new Promise<void>((done) => setImmediate(done));
      // A clean close handshake (1000), not a process that went away with its socket (1006).
      expect(server.ends).toEqual([1000]);
    }, 120_000);
  }

  it('close() settles at the close timeout when the server never answers the close frame (undici)', async () => {
    const server = await cartesiaServer(false);
    const { code, stdout } = await runChild(server.wire.url, 'undici');
    expect(stdout).toBe(`${JSON.stringify({ bytes: AUDIO.byteLength })}\nclosed\n`);
    expect(code).toBe(0);
    // The child cut its side at the close timeout. Reading again, the server finds the client's
    // close frame (1000), never answered, then the connection gone.
    const socket = server.wire.sockets[0]!;
    socket.resume();
    if (!socket.closed) await once(socket, 'close');
    await new Promise<void>((done) => setImmediate(done));
    expect(server.ends).toEqual([1000]);
  }, 120_000);
});
