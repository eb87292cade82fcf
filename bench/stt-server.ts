/**
 * The loopback OpenAI-compatible transcription server of bench/stt-input.ts, run in a process
 * of its own (`node scripts/run-ts.mjs bench/stt-server.ts`) so that its CPU is not counted:
 * prints its origin on the first line of stdout and exits when stdin closes.
 * `POST /v1/audio/transcriptions` reads the whole multipart body and answers 200 JSON
 * `{"text": "<body bytes>"}`, so the client can check that the whole upload arrived.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const server = createServer((req, res) => {
  let bytes = 0;
  req.on('data', (part: Buffer) => {
    bytes += part.byteLength;
  });
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text: String(bytes) }));
  });
});
server.listen(0, '127.0.0.1', () => {
  console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
