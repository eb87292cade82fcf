/**
 * The healthy backup of every "with backup" cell: an OpenAI-compatible server (node:http)
 * answering TTS with raw PCM, STT with one JSON transcript and chat with SSE, from fixtures.ts.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { CHAT_BACKUP, STT_BACKUP, TTS_BACKUP } from '../fixtures.js';
import type { Cap } from '../matrix.js';
import { destroyAll, listenLoopback, type Scope } from './scope.js';

async function readAll(req: IncomingMessage): Promise<void> {
  for await (const _ of req);
}

const chatFrame = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-backup',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
  })}\n\n`;

/** Starts the backup for `cap`; its provider config. `hits` counts the requests it served. */
export async function startBackup(
  cap: Cap,
  scope: Scope,
): Promise<{ config: Record<string, unknown>; hits: () => number }> {
  let hits = 0;
  const sockets: Socket[] = [];
  const server = createServer((req, res) => {
    hits++;
    void readAll(req).then(() => {
      if (cap === 'tts') {
        res.writeHead(200, { 'content-type': 'audio/pcm', 'content-length': String(TTS_BACKUP.byteLength) });
        res.end(TTS_BACKUP);
      } else if (cap === 'stt') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ text: STT_BACKUP }));
      } else {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(
          chatFrame({ role: 'assistant', content: '' }) +
            chatFrame({ content: CHAT_BACKUP }) +
            chatFrame({}, 'stop') +
            'data: [DONE]\n\n',
        );
      }
    });
  });
  server.on('connection', (s) => sockets.push(s));
  const baseUrl = await listenLoopback(server);
  scope.add(async () => {
    await destroyAll(sockets);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const section =
    cap === 'tts'
      ? { tts: { voices: { agent: 'alloy' } } }
      : cap === 'stt'
        ? { stt: { model: 'whisper-1', streaming: false } }
        : { chat: { models: { fast: 'm' } } };
  return { config: { kind: 'openai-compatible', baseUrl, ...section }, hits: () => hits };
}
