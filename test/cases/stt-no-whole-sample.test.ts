/**
 * stt() over audio with no whole sample (nothing, or one stray byte of PCM s16le) has nothing
 * to hear: like TTS text with nothing to speak, no provider is contacted, the result names no
 * provider and has no attempt, no `attempt` event fires, and a stray byte dropped is a logger
 * warning. The server speaks OpenAI's transcription wire on its own (node:http on loopback).
 */
import { describe, expect, it } from 'vitest';
import { AbortError, type Logger } from '../../src/index.js';
import { drain, httpServer, router } from './wire/servers.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;

async function setup() {
  const server = await httpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"text":"hello"}');
    });
  });
  const warnings: unknown[][] = [];
  const logger: Logger = {
    warn: (...args: unknown[]) => void warnings.push(args),
  };
  const r = router(
    {
      providers: {
        a: { kind: 'openai-compatible', baseUrl: server.url, stt: { model: 'w', streaming: false } },
      },
      routes: { stt: { providers: ['a'], strategy: 'priority', firstChunkTimeoutMs: false } },
    },
    { logger },
  );
  const events: string[] = [];
  r.on('attempt', (e) => events.push(`${e.provider} ${e.capability}`));
  return { server, r, warnings, events };
}

async function* chunks(...parts: number[][]) {
  for (const p of parts) yield new Uint8Array(p);
}

describe('stt() over audio with no whole sample', () => {
  it('one stray byte: no request, provider "", no attempt, no attempt event, one warning', async () => {
    const { server, r, warnings, events } = await setup();
    const stream = r.stt({ audio: chunks([7]), format: FORMAT });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(items).toEqual([]);
    const result = await stream.result;
    expect([result.provider, result.attempts, result.timeToFirstChunkMs]).toEqual([
      '',
      [],
      result.durationMs,
    ]);
    expect(server.hits).toBe(0);
    expect(events).toEqual([]);
    expect(warnings).toEqual([
      [
        "Dropped a stray partial sample at the end of the caller's audio",
        { droppedBytes: 1, encoding: 'pcm_s16le', sampleRate: 16_000 },
      ],
    ]);
  });

  it('no audio at all (empty chunks): the same, and no warning', async () => {
    const { server, r, warnings, events } = await setup();
    const stream = r.stt({ audio: chunks([], []), format: FORMAT });
    expect((await drain(stream)).items).toEqual([]);
    const result = await stream.result;
    expect([result.provider, result.attempts]).toEqual(['', []]);
    expect([server.hits, events, warnings]).toEqual([0, [], []]);
  });

  it('whole samples then a stray byte: the provider serves, the stray byte is one warning', async () => {
    const { server, r, warnings, events } = await setup();
    const stream = r.stt({ audio: chunks([1, 0], [2, 0, 3]), format: FORMAT });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(items.map((e) => [e.type, e.text])).toEqual([['final', 'hello']]);
    expect((await stream.result).provider).toBe('a');
    expect([server.hits, events]).toEqual([1, ['a stt']]);
    expect(warnings).toEqual([
      [
        "Dropped a stray partial sample at the end of the caller's audio",
        { droppedBytes: 1, encoding: 'pcm_s16le', sampleRate: 16_000 },
      ],
    ]);
  });

  it('the caller aborts while no whole sample has come: AbortError, no request', async () => {
    const { server, r } = await setup();
    const controller = new AbortController();
    let release!: () => void;
    const never = new Promise<void>((resolve) => {
      release = resolve;
    });
    const audio = (async function* () {
      yield new Uint8Array([7]);
      await never;
    })();
    const stream = r.stt({ audio, format: FORMAT, signal: controller.signal });
    const done = drain(stream);
    controller.abort();
    const { error } = await done;
    release();
    expect(error).toBeInstanceOf(AbortError);
    expect(server.hits).toBe(0);
  });
});
