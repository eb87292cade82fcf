/**
 * The paced loopback speech server of bench/streams.ts, run in a process of its own
 * (`node scripts/run-ts.mjs bench/paced-server.ts`): prints its origin on the first line of
 * stdout and exits when stdin closes. `POST /v1/audio/speech` answers 200 with raw PCM s16le
 * at 24 kHz paced in real time: one 20 ms chunk (960 bytes) per tick of one shared 20 ms
 * timer, {@link CHUNKS} chunks, whose first 4 bytes hold the chunk's number (uint32 LE) so the
 * client can count lost and duplicated chunks. Voice `hold` sends one chunk and then keeps
 * the response open, sending nothing, until the client closes it (an idle stream).
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Bytes of one 20 ms chunk at 24 kHz, PCM s16le mono. */
export const CHUNK_BYTES = 960;
/** Chunks per paced answer: 3 s of audio. */
export const CHUNKS = 150;
/** Tick of the pacing timer (ms). */
export const TICK_MS = 20;

interface Paced {
  res: ServerResponse;
  next: number;
  total: number;
}

const active = new Set<Paced>();

function chunk(n: number): Buffer {
  const out = Buffer.alloc(CHUNK_BYTES);
  for (let i = 4; i + 1 < CHUNK_BYTES; i += 2) {
    out.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * (n * 480 + i / 2)) / 24_000)), i);
  }
  out.writeUInt32LE(n, 0);
  return out;
}

setInterval(() => {
  for (const p of active) {
    if (p.next >= p.total) continue;
    p.res.write(chunk(p.next++));
    if (p.next === p.total && p.total === CHUNKS) {
      active.delete(p);
      p.res.end();
    }
  }
}, TICK_MS);

const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  if (req.method === 'OPTIONS') {
    req.resume();
    res.writeHead(204).end();
    return;
  }
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (piece: string) => {
    body += piece;
  });
  req.on('end', () => {
    const hold = body.includes('"hold"');
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    const paced: Paced = { res, next: 0, total: hold ? 1 : CHUNKS };
    active.add(paced);
    res.on('close', () => active.delete(paced));
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.stdin.resume();
process.stdin.on('end', () => {
  server.closeAllConnections();
  process.exit(0);
});
