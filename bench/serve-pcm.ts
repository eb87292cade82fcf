/**
 * Runs the benchmark's loopback speech server (see pcm-server.ts) in a process of its own, so
 * that its CPU time is not counted with the client's: prints its origin on the first line of
 * stdout and exits when stdin closes (the parent ended or died).
 * Usage: `node scripts/run-ts.mjs bench/serve-pcm.ts`.
 */
import { startPcmServer } from './pcm-server.js';

const server = await startPcmServer();
process.stdout.write(`${server.origin}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void server.close().finally(() => process.exit(0));
});
