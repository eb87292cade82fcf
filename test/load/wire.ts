/**
 * The OpenAI-compatible wire of the load test (test/load) and the load benchmark
 * (bench/load.ts), spoken on its own with node:http: no voxroute code, no mocks. Every stream's
 * bytes are numbered so the caller can check them exactly.
 *
 * - TTS `POST /audio/speech` with `input: "stream <id>."`: {@link TTS_CHUNKS} chunks of
 *   {@link TTS_CHUNK_BYTES} bytes of PCM s16le at 24 kHz ({@link ttsAudio}). The primary answers
 *   in SSE (`speech.audio.delta` events, then `speech.audio.done`), the backup in raw PCM.
 * - STT `POST /audio/transcriptions`: the multipart's WAV must hold exactly {@link STT_CHUNKS}
 *   caller chunks of 640 bytes ({@link sttChunk}); the answer `{"text": "s<id> n=<chunks> ok"}`
 *   says which stream it heard and that every byte was in place ("bad" otherwise).
 * - The primary injects a fault into one request in ten (stream ids that are multiples of 10),
 *   the kind chosen by `(id / 10) % 4`: reset before headers, reset mid-stream, 503, malformed
 *   frame (TTS: a non-JSON SSE event after some audio; STT: a truncated JSON body).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export const TTS_CHUNKS = 20;
export const TTS_CHUNK_BYTES = 960;
export const STT_CHUNKS = 25;
export const STT_CHUNK_BYTES = 640;

export type Fault = 'none' | 'reset-before-headers' | 'reset-mid-stream' | '503' | 'malformed-frame';
const FAULTS: Fault[] = ['reset-before-headers', 'reset-mid-stream', '503', 'malformed-frame'];

/** The fault the primary injects into stream `id`: one stream in ten. */
export function faultOf(id: number): Fault {
  return id % 10 === 0 ? FAULTS[(id / 10) % FAULTS.length]! : 'none';
}

/** Chunk `k` of a numbered stream: stream id and chunk number (uint32 LE), then a pattern. */
function numbered(id: number, k: number, bytes: number): Buffer {
  const out = Buffer.alloc(bytes, (id * 31 + k) & 0xff);
  out.writeUInt32LE(id, 0);
  out.writeUInt32LE(k, 4);
  return out;
}

/** Chunk `k` of TTS stream `id`. */
export function ttsChunk(id: number, k: number): Buffer {
  return numbered(id, k, TTS_CHUNK_BYTES);
}

/** The whole audio of TTS stream `id`. */
export function ttsAudio(id: number): Buffer {
  return Buffer.concat(Array.from({ length: TTS_CHUNKS }, (_, k) => ttsChunk(id, k)));
}

/** Chunk `k` of the caller's audio of STT stream `id`. */
export function sttChunk(id: number, k: number): Buffer {
  return numbered(id, k, STT_CHUNK_BYTES);
}

/** The transcript the servers give for a whole upload of STT stream `id`. */
export function sttText(id: number): string {
  return `s${id} n=${STT_CHUNKS} ok`;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** The `file` part's WAV data of a multipart body (the file is the first part). */
function wavData(contentType: string | undefined, body: Buffer): Buffer | undefined {
  const boundary = /boundary="?([^";]+)"?/.exec(contentType ?? '')?.[1];
  if (!boundary) return undefined;
  const start = body.indexOf('\r\n\r\n') + 4;
  const end = body.indexOf(`\r\n--${boundary}`, start);
  if (start < 4 || end < 0) return undefined;
  const wav = body.subarray(start, end);
  if (wav.toString('latin1', 0, 4) !== 'RIFF') return undefined;
  let at = 12;
  while (at + 8 <= wav.byteLength) {
    const size = wav.readUInt32LE(at + 4);
    if (wav.toString('latin1', at, at + 4) === 'data') return wav.subarray(at + 8, at + 8 + size);
    at += 8 + size + (size % 2);
  }
  return undefined;
}

/** What the server heard of an STT upload: the text it answers. */
function transcribe(data: Buffer | undefined): string {
  if (!data || data.byteLength < 8) return 'bad';
  const id = data.readUInt32LE(0);
  const n = data.byteLength / STT_CHUNK_BYTES;
  let ok = Number.isInteger(n) && n === STT_CHUNKS;
  for (let k = 0; ok && k < n; k++)
    ok = data.subarray(k * STT_CHUNK_BYTES, (k + 1) * STT_CHUNK_BYTES).equals(sttChunk(id, k));
  return `s${id} n=${n} ${ok ? 'ok' : 'bad'}`;
}

/** Waits for the response's buffered bytes to be handed to the kernel. */
function flushed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => res.write('', () => resolve()));
}

async function speech(req: IncomingMessage, res: ServerResponse, primary: boolean): Promise<void> {
  const body = JSON.parse((await readBody(req)).toString()) as { input?: string };
  const id = Number(/stream (\d+)/.exec(body.input ?? '')?.[1]);
  const fault = primary ? faultOf(id) : 'none';
  if (fault === 'reset-before-headers') return void req.socket.resetAndDestroy();
  if (fault === '503')
    return void res
      .writeHead(503, { 'content-type': 'application/json' })
      .end('{"error":{"message":"overloaded"}}');
  if (!primary) {
    res.writeHead(200, { 'content-type': 'audio/pcm' });
    for (let k = 0; k < TTS_CHUNKS; k++) {
      res.write(ttsChunk(id, k));
      if (k % 5 === 4) await flushed(res);
    }
    res.end();
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (let k = 0; k < TTS_CHUNKS; k++) {
    if (k === TTS_CHUNKS / 2 && fault !== 'none') {
      await flushed(res);
      if (fault === 'reset-mid-stream') return void req.socket.resetAndDestroy();
      res.end('data: {"type":"speech.audio.delta","audio":\n\n');
      return;
    }
    res.write(
      `data: ${JSON.stringify({ type: 'speech.audio.delta', audio: ttsChunk(id, k).toString('base64') })}\n\n`,
    );
    if (k % 5 === 4) await flushed(res);
  }
  res.end('data: {"type":"speech.audio.done"}\n\n');
}

async function transcription(req: IncomingMessage, res: ServerResponse, primary: boolean): Promise<void> {
  const text = transcribe(wavData(req.headers['content-type'], await readBody(req)));
  const id = Number(/^s(\d+)/.exec(text)?.[1] ?? -1);
  const fault = primary ? faultOf(id) : 'none';
  if (fault === 'reset-before-headers') return void req.socket.resetAndDestroy();
  if (fault === '503')
    return void res
      .writeHead(503, { 'content-type': 'application/json' })
      .end('{"error":{"message":"overloaded"}}');
  const json = JSON.stringify({ text });
  res.writeHead(200, { 'content-type': 'application/json' });
  if (fault === 'reset-mid-stream') {
    res.write(json.slice(0, 5));
    await flushed(res);
    return void req.socket.resetAndDestroy();
  }
  res.end(fault === 'malformed-frame' ? json.slice(0, -3) : json);
}

/** The request handler of the primary (faults in one stream in ten) or of the healthy backup. */
export function loadHandler(role: 'primary' | 'backup') {
  const primary = role === 'primary';
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.url?.endsWith('/audio/speech')) return speech(req, res, primary);
    if (req.url?.endsWith('/audio/transcriptions')) return transcription(req, res, primary);
    res.writeHead(404).end();
  };
}
