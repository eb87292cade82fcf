/**
 * Small chat servers for case tests, written here (node:http on loopback), not voxroute's mocks:
 * they speak OpenAI's and Anthropic's chat SSE on their own and record each request's JSON body.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach } from 'vitest';

/** A loopback HTTP server: its base URL, and the JSON body of every request it got, in order. */
export interface ChatWire {
  url: string;
  bodies: Array<Record<string, unknown> & { messages: unknown[] }>;
}

/**
 * Serves `handler` on 127.0.0.1, recording each request's JSON body; pushes its close (which
 * destroys the open sockets first) onto `closers`, for the test's afterEach.
 */
export async function chatWireServer(
  handler: (res: ServerResponse) => void | Promise<void>,
  closers: Array<() => Promise<void>>,
): Promise<ChatWire> {
  const bodies: ChatWire['bodies'] = [];
  const sockets: Socket[] = [];
  const http = createServer((req: IncomingMessage, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(parts).toString()) as ChatWire['bodies'][number]);
      void Promise.resolve(handler(res)).catch(() => res.destroy());
    });
  });
  http.on('connection', (s) => sockets.push(s));
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  closers.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, bodies };
}

/** What {@link chatWireForFile} gives a test file. */
export interface ChatWireForFile {
  /** Closed, newest first, after each test: push the file's routers too. */
  closers: Array<() => Promise<void>>;
  /** {@link chatWireServer} with {@link closers}. */
  server: (handler: (res: ServerResponse) => void | Promise<void>) => Promise<ChatWire>;
  /** An OpenAI chat.completion.chunk of the file's reply ({@link openAiChunk} with its id). */
  chunk: (delta: Record<string, unknown>, finish?: string | null) => ReturnType<typeof openAiChunk>;
  /** A server answering every request with the whole OpenAI reply `text` ({@link openAiReply}), whatever the last message is. */
  answering: (text: string) => Promise<ChatWire>;
}

/**
 * For a test file whose OpenAI replies carry the id `replyId`: registers an afterEach that
 * closes, newest first, what was pushed on `closers` (the servers it starts, and whatever the
 * file adds, e.g. its routers); see {@link ChatWireForFile}.
 */
export function chatWireForFile(replyId: string): ChatWireForFile {
  const closers: ChatWireForFile['closers'] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });
  const server: ChatWireForFile['server'] = (handler) => chatWireServer(handler, closers);
  return {
    closers,
    server,
    chunk: (delta, finish = null) => openAiChunk(replyId, delta, finish),
    answering: (text) =>
      server((res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(openAiReply(replyId, text));
      }),
  };
}

/** SSE frames of `values` (`data:` only, as OpenAI sends them). */
export const openAiSse = (values: ReadonlyArray<unknown>): string =>
  values.map((v) => `data: ${typeof v === 'string' ? v : JSON.stringify(v)}\n\n`).join('');

/** Anthropic SSE frames: `event:` equal to the data's `type`. */
export const anthropicSse = (events: ReadonlyArray<Record<string, unknown>>): string =>
  events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join('');

/** An OpenAI chat.completion.chunk with `id`, `delta` and an optional finish reason. */
export const openAiChunk = (id: string, delta: Record<string, unknown>, finish: string | null = null) => ({
  id,
  object: 'chat.completion.chunk',
  created: 1_700_000_000,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

/**
 * A whole OpenAI chat reply speaking `text` as SSE, every chunk with `id`: the role, the text,
 * finish reason `stop`, then `[DONE]`.
 */
export const openAiReply = (id: string, text: string): string =>
  openAiSse([
    openAiChunk(id, { role: 'assistant', content: '' }),
    openAiChunk(id, { content: text }),
    openAiChunk(id, {}, 'stop'),
    '[DONE]',
  ]);

/** Writes `text` and resolves once it is flushed to the socket. */
export const writeFlushed = (res: ServerResponse, text: string): Promise<void> =>
  new Promise<void>((resolve, reject) => res.write(text, (error) => (error ? reject(error) : resolve())));
