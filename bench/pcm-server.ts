/**
 * The loopback speech server of the benchmarks: a plain node:http server that answers
 * `POST /v1/audio/speech` at once with raw PCM s16le (no header, chunked transfer encoding),
 * as an OpenAI-compatible TTS server does with `response_format: 'pcm'` (PROTOCOLS.md §2.3),
 * and `POST /v1/chat/completions` with a short server-sent-event stream of chat completion
 * chunks (PROTOCOLS.md §2.2). No artificial delay anywhere: every chunk is written as
 * soon as the request body is read.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

/** Shape of the answer to one speech request: `chunks` HTTP chunks of `chunkBytes` bytes each. */
export interface PcmAnswer {
  /** Bytes of one chunk (even: whole PCM s16le samples). */
  chunkBytes: number;
  /** Number of chunks written. */
  chunks: number;
}

/** Short answer: 4800 bytes (100 ms at 24 kHz) in 4 chunks of 1200 bytes. */
export const SHORT_ANSWER: PcmAnswer = { chunkBytes: 1200, chunks: 4 };
/** Long answer: 218 chunks of 4800 bytes = 1,046,400 bytes (about 21.8 s at 24 kHz). */
export const LONG_ANSWER: PcmAnswer = { chunkBytes: 4800, chunks: 218 };
/** The server-side voice id that asks for {@link LONG_ANSWER}; any other voice gets {@link SHORT_ANSWER}. */
export const LONG_VOICE = 'long';

/** A running {@link startPcmServer} server. */
export interface PcmServer {
  /** Origin, e.g. `http://127.0.0.1:40123`. */
  origin: string;
  /** Stops listening and closes idle keep-alive sockets. */
  close(): Promise<void>;
}

/** Deterministic, non-silent PCM s16le bytes (a 440 Hz tone at 24 kHz). */
function tone(bytes: number): Buffer {
  const out = Buffer.alloc(bytes);
  for (let i = 0; i + 1 < bytes; i += 2) {
    out.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * (i / 2)) / 24_000)), i);
  }
  return out;
}

/** The chat answer: one SSE event per write, 3 content deltas, a finish chunk, then [DONE]. */
export const CHAT_EVENTS: readonly string[] = [
  ...['Your table', ' is booked', ' for seven thirty.'].map((content) => chunkEvent({ content }, null)),
  chunkEvent({}, 'stop'),
  'data: [DONE]\n\n',
];
/** The text of the chat answer, all deltas joined. */
export const CHAT_TEXT = 'Your table is booked for seven thirty.';

function chunkEvent(delta: Record<string, string>, finish: string | null): string {
  const chunk = {
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'bench-chat',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

function answerChat(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const event of CHAT_EVENTS) res.write(event);
  res.end();
}

const SHORT_CHUNK = tone(SHORT_ANSWER.chunkBytes);
const LONG_CHUNK = tone(LONG_ANSWER.chunkBytes);

function answer(res: ServerResponse, body: string): void {
  let voice = '';
  try {
    voice = String((JSON.parse(body) as { voice?: unknown }).voice ?? '');
  } catch {
    res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"bad json"}}');
    return;
  }
  const shape = voice === LONG_VOICE ? LONG_ANSWER : SHORT_ANSWER;
  const chunk = voice === LONG_VOICE ? LONG_CHUNK : SHORT_CHUNK;
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  for (let i = 0; i < shape.chunks; i++) res.write(chunk);
  res.end();
}

/**
 * Starts the server on 127.0.0.1 (`port` 0: any free port). `POST /v1/audio/speech` answers
 * 200 with PCM ({@link SHORT_ANSWER} or, for voice {@link LONG_VOICE}, {@link LONG_ANSWER});
 * `POST /v1/chat/completions` answers 200 with the {@link CHAT_EVENTS} stream;
 * `OPTIONS /` (the router's warmup) answers 204; anything else 404.
 */
export async function startPcmServer(port = 0): Promise<PcmServer> {
  const server: Server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    if (req.method === 'OPTIONS') {
      req.resume();
      res.writeHead(204).end();
      return;
    }
    if (req.method === 'POST' && req.url === '/v1/chat/completions') {
      req.resume();
      req.on('end', () => answerChat(res));
      return;
    }
    if (req.method !== 'POST' || req.url !== '/v1/audio/speech') {
      req.resume();
      res.writeHead(404).end();
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (piece: string) => {
      body += piece;
    });
    req.on('end', () => answer(res, body));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The same server in a child process of its own (bench/serve-pcm.ts), so that its CPU time is
 * not counted with the client's. Rejects when the process exits before listening; `close()`
 * ends its stdin and waits for it to exit (killed after 2 s).
 */
export async function startPcmServerProcess(): Promise<PcmServer> {
  const child = spawn(
    process.execPath,
    [resolve(HERE, '../scripts/run-ts.mjs'), resolve(HERE, 'serve-pcm.ts')],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout! });
  const [origin] = (await Promise.race([
    once(lines, 'line'),
    once(child, 'exit').then(() => {
      throw new Error('the speech server process exited before listening');
    }),
  ])) as [string];
  lines.close();
  return {
    origin,
    close: async () => {
      const exited = once(child, 'exit');
      child.stdin?.end();
      const timer = setTimeout(() => child.kill(), 2_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
