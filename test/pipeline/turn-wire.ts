/**
 * A loopback node:http server speaking OpenAI's wire on its own (transcriptions, chat SSE,
 * speech PCM), for the voice turn's failure and barge-in tests: no voxroute mock in between.
 * Servers and routers started here are closed when the test ends.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createRouter, type Router, type RouterConfig } from '../../src/index.js';
import { chatChunk, sseFrames } from '../cases/wire/servers.js';
import { voiceTurnConfig } from '../cases/wire/voice-turn-config.js';
import { closeAfterTest } from '../helpers/close-after-test.js';

const closeLater = closeAfterTest();

/** A request the server got: its path and whole body. */
export interface WireRequest {
  path: string;
  body: Buffer;
}

/** The server: its origin, the requests so far (in order of arrival) and its connections. */
export interface TurnWire {
  url: string;
  requests: WireRequest[];
  sockets: Socket[];
}

/** Serves `handler` (called once the request's body is read) on 127.0.0.1 until the test ends. */
export async function turnWire(
  handler: (req: WireRequest, res: ServerResponse, n: number) => void | Promise<void>,
): Promise<TurnWire> {
  const requests: WireRequest[] = [];
  const sockets: Socket[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const parts: Buffer[] = [];
    req.on('data', (p: Buffer) => parts.push(p));
    req.on('end', () => {
      const request = { path: req.url ?? '', body: Buffer.concat(parts) };
      requests.push(request);
      void Promise.resolve(handler(request, res, requests.length)).catch(() => res.destroy());
    });
  });
  server.on('connection', (s) => sockets.push(s));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closeLater(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, sockets };
}

/**
 * A router with one OpenAI-compatible provider `a` at `url` for every stage (batch STT model
 * `w`, chat model `f`, voice `v`), each route on `a` alone unless `routes` says otherwise;
 * closed when the test ends.
 */
export function turnRouter(url: string, routes: Partial<RouterConfig['routes']> = {}): Router {
  const config = voiceTurnConfig(url);
  const router = createRouter({
    ...config,
    routes: { ...config.routes, ...routes } as RouterConfig['routes'],
  });
  closeLater(() => router.close());
  return router;
}

/** One SSE frame of an OpenAI chat.completion.chunk with `delta` (and a finish reason). */
export function chatFrame(delta: Record<string, unknown>, finish: string | null = null): string {
  return sseFrames([chatChunk(delta, finish)]);
}

/** The frames that end an OpenAI chat stream normally. */
export const CHAT_END = `${chatFrame({}, 'stop')}data: [DONE]\n\n`;

/** Answers a transcription request with `text` (OpenAI's JSON). */
export function answerTranscript(res: ServerResponse, text: string): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ text }));
}

/** Answers a speech request with raw PCM `audio`. */
export { answerPcm as answerSpeech } from '../cases/wire/servers.js';

/** Answers with HTTP `status` and an OpenAI error body. */
export function answerError(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message: `wire ${status}`, type: 'server_error', code: null } }));
}

/** The text a speech request asked for (its JSON body's `input`). */
export function speechInput(req: WireRequest): string {
  return (JSON.parse(req.body.toString()) as { input: string }).input;
}
