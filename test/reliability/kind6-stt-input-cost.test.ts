/**
 * Kind 6, cost that grows with the stream: STT input through the OpenAI-compatible path must
 * cost the same per chunk however long the audio is. Checked by structure, not by time: the
 * caller's chunks count every read of their `byteLength` from JavaScript (each look at a kept
 * chunk reads it), and the reads per chunk must not grow with the number of chunks. A
 * per-chunk scan of the kept audio (the old reader) reads it O(n) times per chunk. The CPU
 * target (<= 20 us per 20 ms chunk) lives in bench/stt-input.ts.
 */
import { describe, expect, it } from 'vitest';
import type { RouterConfig } from '../../src/index.js';
import { ReplayableAudio } from '../../src/routing/replayable-audio.js';
import { httpServer, multipart, readBody, router, wavData } from '../cases/wire/servers.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000 } as const;

/** Bytes that count how often JavaScript reads their `byteLength`. */
class CountedBytes extends Uint8Array {
  static reads = 0;
  override get byteLength(): number {
    CountedBytes.reads++;
    return super.byteLength;
  }
}

/** `chunks` 20 ms chunks (640 bytes), chunk i filled with i mod 251. */
async function* microphone(chunks: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < chunks; i++) yield new CountedBytes(640).fill(i % 251);
}

function expected(chunks: number): Buffer {
  const out = Buffer.alloc(chunks * 640);
  for (let i = 0; i < chunks; i++) out.fill(i % 251, i * 640, (i + 1) * 640);
  return out;
}

describe('kind 6: STT input cost is linear in the audio', () => {
  it('router.stt() over the OpenAI-compatible path reads each chunk a fixed number of times', async () => {
    const uploads: Buffer[] = [];
    const server = await httpServer(async (req, res) => {
      const parts = multipart(req.headers['content-type'], await readBody(req));
      uploads.push(wavData(parts.get('file')!).data);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"text":"ok"}');
    });
    const r = router({
      providers: {
        a: { kind: 'openai-compatible', baseUrl: server.url, stt: { model: 'w', streaming: false } },
      },
      routes: { stt: { providers: ['a'], strategy: 'priority', firstChunkTimeoutMs: false } },
    } as RouterConfig);
    const readsPerChunk: number[] = [];
    for (const chunks of [500, 4000]) {
      CountedBytes.reads = 0;
      const events = [];
      for await (const e of r.stt({ audio: microphone(chunks), format: FORMAT })) events.push(e);
      readsPerChunk.push(CountedBytes.reads / chunks);
      expect(events.map((e) => [e.type, e.text])).toEqual([['final', 'ok']]);
      expect(uploads.at(-1)!.equals(expected(chunks))).toBe(true);
    }
    // The old reader scanned every kept chunk per chunk read: ~chunks/2 reads per chunk per reader.
    const [short, long] = readsPerChunk as [number, number];
    // 13 today; a bound with room, far below the old 892 at 500 chunks.
    expect(short).toBeLessThanOrEqual(32);
    expect(Math.abs(long - short)).toBeLessThan(0.5);
  });

  it('ReplayableAudio: readers from any offset, after trims and compaction, get exact bytes', async () => {
    const chunks = 300;
    const audio = new ReplayableAudio(microphone(chunks), FORMAT);
    const all = expected(chunks);
    const read = async (from: number, signal?: AbortSignal) => {
      const parts: Uint8Array[] = [];
      for await (const p of audio.reader(signal, from)) parts.push(Buffer.from(p));
      return Buffer.concat(parts);
    };
    expect((await read(0)).equals(all)).toBe(true);
    expect(audio.totalBytes).toBe(chunks * 640);
    expect(audio.keptBytes).toBe(chunks * 640);
    // From the middle of chunk 10.
    expect((await read(10 * 640 + 3)).equals(all.subarray(10 * 640 + 3))).toBe(true);
    // Trim 200 chunks (compacts the store); a trim in the middle of a chunk keeps that chunk.
    audio.trimBefore(200 * 640 + 5);
    expect(audio.keptBytes).toBe(100 * 640);
    expect((await read(200 * 640 + 5)).equals(all.subarray(200 * 640 + 5))).toBe(true);
    // Trimmed audio is no longer there: a reader from before it starts at the first kept byte.
    expect((await read(0)).equals(all.subarray(200 * 640))).toBe(true);
    audio.trimBefore(250 * 640);
    expect(audio.keptBytes).toBe(50 * 640);
    expect((await read(260 * 640)).equals(all.subarray(260 * 640))).toBe(true);
    audio.trimBefore(chunks * 640);
    expect(audio.keptBytes).toBe(0);
    expect((await read(0)).byteLength).toBe(0);
  });

  it('ReplayableAudio: a live reader goes on across a trim that compacts the store', async () => {
    const chunks = 400;
    const audio = new ReplayableAudio(microphone(chunks), FORMAT);
    const parts: Uint8Array[] = [];
    let n = 0;
    for await (const p of audio.reader(undefined, 0)) {
      parts.push(Buffer.from(p));
      // Trim everything read so far every 100 chunks: the reader's position survives compaction.
      if (++n % 100 === 0) audio.trimBefore(n * 640);
    }
    expect(Buffer.concat(parts).equals(expected(chunks))).toBe(true);
    expect(audio.keptBytes).toBe(0);
  });
});
