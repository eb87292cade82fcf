import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type AudioChunk,
  createRouter,
  MidStreamError,
  ProviderError,
  type Router,
} from '../../src/index.js';

const PCM_24K = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 } as const;
const SENTENCES = ['One two three.', 'Four five six.', 'Seven eight nine.'];

/** The bytes this server speaks for `input`: 960 bytes (20 ms at 24 kHz) per word, each byte the word's first char code. */
function speech(input: string): Buffer {
  return Buffer.concat(input.split(' ').map((w) => Buffer.alloc(960, w.charCodeAt(0))));
}

interface Seen {
  input: string;
  socket: number;
}

/**
 * An OpenAI-compatible speech server written against node:http alone (not voxroute's mocks):
 * it answers `POST /v1/audio/speech` with raw PCM, keeps connections alive, and applies
 * `fault(n, input)` to the n-th request of each input ('reset': destroy the socket before the
 * headers; a number: answer that status).
 */
async function startServer(fault: (n: number, input: string) => 'reset' | number | undefined) {
  const ids = new WeakMap<Socket, number>();
  let nextId = 0;
  const seen: Seen[] = [];
  const count = new Map<string, number>();
  const server = http.createServer((req, res) => {
    let id = ids.get(req.socket);
    if (id === undefined) {
      id = ++nextId;
      ids.set(req.socket, id);
    }
    const socket = id;
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => {
      body += d;
    });
    req.on('end', () => {
      const input = (JSON.parse(body) as { input: string }).input;
      seen.push({ input, socket });
      const n = (count.get(input) ?? 0) + 1;
      count.set(input, n);
      const f = fault(n, input);
      if (f === 'reset') {
        req.socket.destroy();
        return;
      }
      if (typeof f === 'number') {
        res.writeHead(f, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'busy' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'audio/pcm' });
      res.end(speech(input));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, origin, seen };
}

describe("default midStream ('error'): a later sentence failing before its first byte is retried on the same provider", () => {
  let server: http.Server | undefined;
  let router: Router | undefined;
  afterEach(async () => {
    await router?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  async function run(fault: (n: number, input: string) => 'reset' | number | undefined) {
    const s = await startServer(fault);
    server = s.server;
    router = createRouter({
      providers: {
        a: { kind: 'openai-compatible', baseUrl: `${s.origin}/v1`, tts: { voices: { v: 'alloy' } } },
      },
      routes: { tts: { providers: ['a'], strategy: 'priority' } },
    });
    const chunks: AudioChunk[] = [];
    const stream = router.tts({ text: SENTENCES.join(' '), voice: 'v', format: PCM_24K });
    let error: unknown;
    try {
      for await (const c of stream) chunks.push(c);
    } catch (e) {
      error = e;
    }
    const bytes = Buffer.concat(chunks.map((c) => Buffer.from(c.data)));
    return { seen: s.seen, bytes, error, result: error ? undefined : await stream.result };
  }

  it('a reset before the first byte of sentence 2: asked again of the same voice on a fresh connection; exact bytes', async () => {
    const { seen, bytes, error, result } = await run((n, input) =>
      input === SENTENCES[1] && n === 1 ? 'reset' : undefined,
    );
    expect(error).toBeUndefined();
    expect(bytes.equals(Buffer.concat(SENTENCES.map(speech)))).toBe(true);
    const s2 = seen.filter((x) => x.input === SENTENCES[1]);
    expect(s2).toHaveLength(2);
    // The reset connection is gone: the retry went out on one that had not carried sentence 2.
    expect(s2[1]!.socket).not.toBe(s2[0]!.socket);
    expect(result!.attempts.map((x) => [x.provider, x.outcome])).toEqual([['a', 'success']]);
  });

  it('reset on both requests of sentence 2: the call ends with MidStreamError after sentence 1, exactly', async () => {
    const { seen, bytes, error } = await run((_, input) => (input === SENTENCES[1] ? 'reset' : undefined));
    expect(MidStreamError.isInstance(error)).toBe(true);
    expect(ProviderError.isInstance((error as MidStreamError).cause)).toBe(true);
    expect(bytes.equals(speech(SENTENCES[0]!))).toBe(true);
    // Twice by the sentence retry (a reset on a reused keep-alive socket may add one transport retry).
    const asked = seen.filter((x) => x.input === SENTENCES[1]).length;
    expect([2, 3]).toContain(asked);
    expect(seen.some((x) => x.input === SENTENCES[2])).toBe(false);
  });

  it('a 503 before the first byte of sentence 2: asked once more, every sentence heard once', async () => {
    const { seen, bytes, error } = await run((n, input) =>
      input === SENTENCES[1] && n === 1 ? 503 : undefined,
    );
    expect(error).toBeUndefined();
    expect(bytes.equals(Buffer.concat(SENTENCES.map(speech)))).toBe(true);
    expect(seen.map((x) => x.input)).toEqual([SENTENCES[0], SENTENCES[1], SENTENCES[1], SENTENCES[2]]);
  });
});
