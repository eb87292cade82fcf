/**
 * The loopback servers of bench/load.ts, run in a process of their own
 * (`node scripts/run-ts.mjs bench/load-server.ts`) so that their memory is not measured: the
 * OpenAI-compatible primary (a fault in one stream in ten) and healthy backup of test/load/wire.ts.
 * Prints the two origins (primary, then backup) on the first line of stdout, separated by a
 * space, and exits when stdin closes.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadHandler } from '../test/load/wire.js';

async function serve(role: 'primary' | 'backup'): Promise<string> {
  const handle = loadHandler(role);
  const server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const origins = [await serve('primary'), await serve('backup')];
console.log(origins.join(' '));
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
