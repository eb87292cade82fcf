import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/errors/index.js';
import { createOpenAiAdapter } from '../../../src/providers/openai/index.js';
import { createHttpTransport } from '../../../src/transport/index.js';
import type { HttpTransport } from '../../../src/transport/types.js';
import {
  attemptOf,
  collect,
  collectUntilError,
  data,
  fromChunks,
  type LoopbackServer,
  recordingTransport,
  sendSse,
  startServer,
} from './helpers.js';

describe('createOpenAiAdapter', () => {
  it('creates only the capabilities whose option is present', () => {
    const base = { name: 'x', kind: 'openai-compatible' as const, baseUrl: 'http://127.0.0.1:1/v1' };
    const none = createOpenAiAdapter(base);
    expect(none.name).toBe('x');
    expect([none.chat, none.tts, none.stt]).toEqual([undefined, undefined, undefined]);
    const all = createOpenAiAdapter({
      ...base,
      chat: {},
      tts: { responseFormat: 'pcm', streamFormat: 'audio' },
      stt: { model: 'whisper-1', streaming: false },
    });
    expect(typeof all.chat?.chat).toBe('function');
    expect(all.tts?.capabilities).toEqual({
      outputFormats: [{ encoding: 'pcm_s16le', sampleRate: 24000 }],
      streamingText: false,
      wordTimestamps: false,
    });
    expect(all.stt?.capabilities).toEqual({
      inputFormats: [
        { encoding: 'pcm_s16le', sampleRate: 16000 },
        { encoding: 'pcm_s16le', sampleRate: 24000 },
        { encoding: 'pcm_s16le', sampleRate: 8000 },
      ],
      streamingInput: false,
    });
  });
});

describe('the API key stays with the base URL origin', () => {
  const servers: LoopbackServer[] = [];
  let transport: HttpTransport | undefined;
  afterEach(async () => {
    await transport?.close();
    for (const s of servers.splice(0)) await s.close();
  });

  for (const mode of ['undici', 'fetch'] as const) {
    it(`a redirect to another origin is not followed (${mode} transport)`, async () => {
      const elsewhere = await startServer((_req, res) =>
        sendSse(res, [
          data({ choices: [{ delta: { content: 'stolen' }, finish_reason: 'stop' }] }),
          data('[DONE]'),
        ]),
      );
      servers.push(elsewhere);
      const home = await startServer((_req, res) => {
        res.writeHead(307, { location: `${elsewhere.origin}/v1/chat/completions` });
        res.end();
      });
      servers.push(home);
      transport = mode === 'fetch' ? createHttpTransport({ fetch: globalThis.fetch }) : createHttpTransport();
      const adapter = createOpenAiAdapter({
        name: 'gw',
        kind: 'openai-compatible',
        baseUrl: `${home.origin}/v1`,
        apiKey: 'sk-only-for-home',
        chat: {},
      });
      const { items, error } = await collectUntilError(
        adapter.chat!.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, attemptOf(transport)),
      );
      expect(items).toEqual([]);
      expect(ProviderError.isInstance(error)).toBe(true);
      expect((error as ProviderError).status).toBe(307);
      expect(home.requests[0]?.headers.authorization).toBe('Bearer sk-only-for-home');
      expect(elsewhere.requests).toHaveLength(0);
    });
  }
});

describe('every request carries the attempt signal and deadlines', () => {
  let server: LoopbackServer | undefined;
  let transport: HttpTransport | undefined;
  afterEach(async () => {
    await transport?.close();
    await server?.close();
  });

  it('chat, speech and transcription pass attempt.signal and attempt.deadlines to the transport', async () => {
    server = await startServer((req, res) => {
      if (req.path.endsWith('/chat/completions')) {
        sendSse(res, [
          data({ choices: [{ delta: { content: 'x' }, finish_reason: 'stop' }] }),
          data('[DONE]'),
        ]);
      } else if (req.path.endsWith('/audio/speech')) {
        res.writeHead(200, { 'content-type': 'audio/pcm' });
        res.end(Buffer.alloc(4));
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"text":"x"}');
      }
    });
    transport = createHttpTransport();
    const recording = recordingTransport(transport);
    const adapter = createOpenAiAdapter({
      name: 'all',
      kind: 'openai-compatible',
      baseUrl: `${server.origin}/v1`,
      chat: {},
      tts: { responseFormat: 'pcm', streamFormat: 'audio' },
      stt: { model: 'w', streaming: false },
    });
    const controller = new AbortController();
    const deadlines = { connectMs: 50, headersMs: 800, firstByteMs: 900, idleMs: 600, totalMs: 4000 };
    const attempt = attemptOf(recording, controller.signal, deadlines);
    await collect(adapter.chat!.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, attempt));
    await collect(
      adapter.tts!.synthesize(
        { text: 'hi', voice: 'v', format: { encoding: 'pcm_s16le', sampleRate: 24000 } },
        attempt,
      ),
    );
    await collect(
      adapter.stt!.transcribe(
        {
          audio: fromChunks([new Uint8Array(32)]),
          format: { encoding: 'pcm_s16le', sampleRate: 16000 },
          interim: false,
        },
        attempt,
      ),
    );
    expect(recording.sent.map((r) => [r.method, new URL(r.url).pathname])).toEqual([
      ['POST', '/v1/chat/completions'],
      ['POST', '/v1/audio/speech'],
      ['POST', '/v1/audio/transcriptions'],
    ]);
    for (const sent of recording.sent) {
      expect(sent.provider).toBe('all');
      expect(sent.signal).toBe(controller.signal);
      expect(sent.deadlines).toEqual(deadlines);
    }
  });
});
