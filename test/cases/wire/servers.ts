/**
 * Loopback servers for the case tests that speak each provider's wire on their own (node:http
 * and ws), with none of voxroute's mocks: a mock that shared an adapter's mistake would prove
 * nothing. Everything started here is closed after each test.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import { createRouter, type Router, type RouterConfig, type RouterOptions } from '../../../src/index.js';
import { closeAfterTest } from '../../helpers/close-after-test.js';

/** Closes what a test started, when it ends (see closeAfterTest). */
const closeLater = closeAfterTest();

/** A loopback HTTP server: its base URL, the requests it got, and the sockets it holds. */
export interface HttpWire {
  url: string;
  /** Number of requests received so far. */
  hits: number;
  /** Every TCP connection accepted so far. */
  sockets: Socket[];
  /** Resolves when the `n`th request (1-based) has arrived. */
  request(n: number): Promise<void>;
  close(): Promise<void>;
}

/** Resolvers waiting for a count to reach a value. */
class Counter {
  value = 0;
  #waiters: Array<{ n: number; resolve: () => void }> = [];
  bump(): number {
    this.value++;
    for (const w of this.#waiters.filter((w) => w.n <= this.value)) w.resolve();
    this.#waiters = this.#waiters.filter((w) => w.n > this.value);
    return this.value;
  }
  reach(n: number): Promise<void> {
    if (this.value >= n) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ n, resolve }));
  }
}

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function shut(server: Server, sockets: Socket[]): Promise<void> {
  for (const s of sockets) s.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Serves `handler` on 127.0.0.1 until the end of the test; `n` counts requests from 1. */
export async function httpServer(
  handler: (req: IncomingMessage, res: ServerResponse, n: number) => void | Promise<void>,
): Promise<HttpWire> {
  const counter = new Counter();
  const sockets: Socket[] = [];
  const server = createServer((req, res) => {
    const n = counter.bump();
    void Promise.resolve(handler(req, res, n)).catch(() => res.destroy());
  });
  server.on('connection', (s) => sockets.push(s));
  const url = await listen(server);
  const wire: HttpWire = {
    url,
    get hits() {
      return counter.value;
    },
    sockets,
    request: (n) => counter.reach(n),
    close: () => shut(server, sockets),
  };
  closeLater(() => wire.close());
  return wire;
}

/** A loopback WebSocket server. */
export interface WsWire {
  url: string;
  /** Number of WebSocket connections accepted so far. */
  connections: number;
  /** The TCP sockets under each connection, in order. */
  sockets: Socket[];
  close(): Promise<void>;
}

/** Options of {@link wsServer}. */
export interface WsServerOptions {
  /** Send a 102 Processing and a 103 Early Hints before each handshake's 101 (see {@link INFORMATIONAL}). */
  informational?: boolean;
}

/** Serves WebSocket connections on 127.0.0.1 until the end of the test; `n` counts them from 1. */
export async function wsServer(
  onConnection: (ws: WebSocket, req: IncomingMessage, n: number) => void,
  options: WsServerOptions = {},
): Promise<WsWire> {
  const server = createServer((_req, res) => {
    res.writeHead(404).end();
  });
  const sockets: Socket[] = [];
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (options.informational) socket.write(INFORMATIONAL);
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  let connections = 0;
  wss.on('connection', (ws, req) => {
    connections++;
    sockets.push(req.socket);
    onConnection(ws, req, connections);
  });
  const url = await listen(server);
  const wire: WsWire = {
    url,
    get connections() {
      return connections;
    },
    sockets,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      await shut(server, sockets);
    },
  };
  closeLater(() => wire.close());
  return wire;
}

/** A 102 Processing then a 103 Early Hints, as a server (or the CDN in front of it) writes them before its final response. */
export const INFORMATIONAL =
  'HTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </hints.css>; rel=preload\r\n\r\n';

/** Writes {@link INFORMATIONAL}'s 102 and 103 on `res`, before its final status. */
export function writeInformational(res: ServerResponse): void {
  res.writeProcessing();
  res.writeEarlyHints({ link: '</hints.css>; rel=preload' });
}

/** The whole body of `req`. */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** A router over `config`, closed at the end of the test. */
export function router(config: RouterConfig, options?: RouterOptions): Router {
  const r = createRouter(config, options);
  closeLater(() => r.close());
  return r;
}

export { drain } from '../../helpers/streams.js';

/** Resolves once `socket` is closed (at once when it already is). */
export function closed(socket: Socket): Promise<void> {
  if (socket.destroyed || socket.closed) return Promise.resolve();
  return new Promise((resolve) => socket.once('close', () => resolve()));
}

/** A deterministic voice-like PCM s16le signal of `samples` samples (two tones and a slow envelope). */
export function pcmSignal(samples: number, sampleRate: number, seed = 1): Buffer {
  const out = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    const t = i / sampleRate;
    const envelope = 0.5 + 0.5 * Math.sin(2 * Math.PI * 3 * t + seed);
    const v =
      envelope * (0.5 * Math.sin(2 * Math.PI * 220 * seed * t) + 0.3 * Math.sin(2 * Math.PI * 660 * t));
    out.writeInt16LE(Math.round(v * 12_000), i * 2);
  }
  return out;
}

/** The bytes of `parts` end to end. */
export function concat(parts: readonly Uint8Array[]): Buffer {
  return Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength)));
}

/** `bytes` in pieces of `size` bytes, as an async iterable (the caller's microphone). */
export async function* pieces(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.byteLength; i += size) yield bytes.subarray(i, i + size);
}

/** The parts of a multipart/form-data body: name -> bytes. */
export function multipart(contentType: string | undefined, body: Buffer): Map<string, Buffer> {
  const boundary = /boundary="?([^";]+)"?/.exec(contentType ?? '')?.[1];
  if (!boundary) throw new Error(`not multipart: ${contentType}`);
  const delimiter = Buffer.from(`--${boundary}`);
  const parts = new Map<string, Buffer>();
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.byteLength;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    const part = body.subarray(start + 2, next - 2); // after CRLF, before CRLF--boundary
    const split = part.indexOf('\r\n\r\n');
    const head = part.subarray(0, split).toString();
    const name = /name="([^"]+)"/.exec(head)?.[1];
    if (name) parts.set(name, part.subarray(split + 4));
    at = next;
  }
  return parts;
}

/** The sample rate and PCM data of a RIFF/WAVE file (data to the end when its size is unknown). */
export function wavData(wav: Buffer): { sampleRate: number; data: Buffer } {
  if (wav.toString('latin1', 0, 4) !== 'RIFF' || wav.toString('latin1', 8, 12) !== 'WAVE')
    throw new Error('not a WAV file');
  let at = 12;
  let sampleRate = 0;
  while (at + 8 <= wav.byteLength) {
    const id = wav.toString('latin1', at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    if (id === 'fmt ') sampleRate = wav.readUInt32LE(at + 12);
    if (id === 'data') {
      const end = size === 0xffffffff || at + 8 + size > wav.byteLength ? wav.byteLength : at + 8 + size;
      return { sampleRate, data: wav.subarray(at + 8, end) };
    }
    at += 8 + size + (size % 2);
  }
  throw new Error('WAV file without a data chunk');
}

/** Writes one SSE frame per JSON value (or raw string) with `data:` lines. */
export function sseFrames(values: ReadonlyArray<unknown>): string {
  return values.map((v) => `data: ${typeof v === 'string' ? v : JSON.stringify(v)}\n\n`).join('');
}

/** Anthropic Messages SSE frames: one per event, `event:` equal to its JSON `type`. */
export function anthropicFrames(events: ReadonlyArray<Record<string, unknown>>): string {
  return events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join('');
}

/** An Anthropic `message_start` event of message `id` from model `claude-x`, with `inputTokens` of usage. */
export function messageStart(id: string, inputTokens: number): Record<string, unknown> {
  return {
    type: 'message_start',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: inputTokens, output_tokens: 1 },
    },
  };
}

/** An OpenAI chat.completion.chunk with `delta` and an optional finish reason. */
export function chatChunk(delta: Record<string, unknown>, finish: string | null = null): unknown {
  return {
    id: 'chatcmpl-case',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

/** A complete OpenAI chat SSE answer speaking `text`. */
export function chatAnswer(text: string): string {
  return sseFrames([
    chatChunk({ role: 'assistant', content: '' }),
    chatChunk({ content: text }),
    chatChunk({}, 'stop'),
    '[DONE]',
  ]);
}

/** Answers an OpenAI-style chat request with `text` over SSE. */
export function answerChat(res: ServerResponse, text: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(chatAnswer(text));
}

/** Answers an OpenAI-style speech request with raw PCM `audio`. */
export function answerPcm(res: ServerResponse, audio: Uint8Array): void {
  res.writeHead(200, { 'content-type': 'audio/pcm', 'content-length': String(audio.byteLength) });
  res.end(audio);
}

/**
 * An OpenAI speech server that answers every request with `audio` (PCM s16le) and records each
 * request's `input` text, in order of arrival.
 */
export async function recordingSpeechServer(audio: Buffer): Promise<{ wire: HttpWire; inputs: string[] }> {
  const inputs: string[] = [];
  const wire = await httpServer(async (req, res) => {
    inputs.push((JSON.parse((await readBody(req)).toString()) as { input: string }).input);
    answerPcm(res, audio);
  });
  return { wire, inputs };
}

/**
 * A batch STT server (OpenAI-compatible `/audio/transcriptions`) that records the PCM of each
 * WAV upload and answers `text`.
 */
export async function batchStt(text: string): Promise<{ url: string; uploads: Buffer[] }> {
  const uploads: Buffer[] = [];
  const server = await httpServer(async (req, res) => {
    uploads.push(wavData(multipart(req.headers['content-type'], await readBody(req)).get('file')!).data);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ text }));
  });
  return { url: server.url, uploads };
}

/**
 * A chat config of two providers in priority order, no first-chunk deadline: `a` of `kind` at
 * `aUrl` (model `fast` = `claude-x` for Anthropic, with `apiKey`; `m` otherwise), then an
 * OpenAI-compatible `b` at `bUrl`.
 */
export function chatPair(
  kind: 'anthropic' | 'openai-compatible',
  aUrl: string,
  bUrl: string,
  apiKey: string,
): RouterConfig {
  const a =
    kind === 'anthropic'
      ? { kind: 'anthropic' as const, baseUrl: aUrl, apiKey, chat: { models: { fast: 'claude-x' } } }
      : { kind: 'openai-compatible' as const, baseUrl: aUrl, chat: { models: { fast: 'm' } } };
  return {
    providers: { a, b: { kind: 'openai-compatible', baseUrl: bUrl, chat: { models: { fast: 'm' } } } },
    routes: { chat: { providers: ['a', 'b'], strategy: 'priority', firstChunkTimeoutMs: false } },
  };
}

/** A router with one ElevenLabs provider `e` on its WebSocket transport at `url` (voice `v`). */
export function elevenLabsWebSocketRouter(url: string): Router {
  return router({
    providers: {
      e: {
        kind: 'elevenlabs',
        baseUrl: url,
        apiKey: `${'xi'}-test-key-0123`,
        tts: { voices: { v: 'voice-id' }, transport: 'websocket' },
      },
    },
    routes: { tts: { providers: ['e'] } },
  });
}
