/**
 * The resampler's WebAssembly module cannot be loaded (an application bundled into one file
 * without its `.wasm` file: Emscripten's glue rejects with `Aborted(Error: ENOENT ...)`). That is
 * a failure inside voxroute, not the provider's: a call that needs resampling ends with
 * AudioConversionError naming it, with no fallback (the next provider would fail the same way)
 * and no provider charged (no error, breaker closed). The servers speak the wire on their own
 * (node:http on loopback).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AudioConversionError } from '../../src/index.js';
import { answerPcm, drain, httpServer, pcmSignal, router } from './wire/servers.js';

const LOAD_FAILURE =
  "Aborted(Error: ENOENT: no such file or directory, open '/app/dist/speex-resampler-simd.wasm'). Build with -sASSERTIONS for more info.";

/** What the loader rejects with: set by each test (a CommonJS bundle fails with a TypeError). */
const loader = vi.hoisted(() => ({ failure: undefined as unknown }));

vi.mock('@echogarden/speex-resampler-wasm/simd', () => ({
  default: () => Promise.reject(loader.failure),
}));

async function pair() {
  const a = await httpServer(async (req, res) => {
    for await (const _ of req) {
      // read the request body
    }
    if (req.url?.includes('/audio/transcriptions'))
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"text":"hello"}');
    else answerPcm(res, pcmSignal(2400, 24_000));
  });
  const b = await httpServer(async (req, res) => {
    for await (const _ of req) {
      // read the request body
    }
    answerPcm(res, pcmSignal(2400, 24_000));
  });
  const provider = (url: string) => ({
    kind: 'openai-compatible' as const,
    baseUrl: url,
    tts: { voices: { agent: 'v' } },
    stt: { model: 'whisper', streaming: false },
  });
  const r = router(
    {
      providers: { a: provider(a.url), b: provider(b.url) },
      routes: {
        tts: { providers: ['a', 'b'], strategy: 'priority' },
        stt: { providers: ['a', 'b'], strategy: 'priority' },
      },
    },
    { resampleOffload: false },
  );
  return { a, b, r };
}

describe('the resampler cannot be loaded', () => {
  beforeEach(() => {
    loader.failure = new Error(LOAD_FAILURE);
  });

  it('tts at another rate: AudioConversionError, no fallback, no provider charged', async () => {
    const { b, r } = await pair();
    const { items, error } = await drain(
      r.tts({ text: 'Hello there.', voice: 'agent', format: { encoding: 'pcm_s16le', sampleRate: 16_000 } }),
    );
    expect(items).toEqual([]);
    expect(AudioConversionError.isInstance(error)).toBe(true);
    expect((error as AudioConversionError).message).toBe(
      `The resampler for pcm_s16le@24000Hz -> pcm_s16le@16000Hz could not be started: ${LOAD_FAILURE} (a bundled application must keep @echogarden/speex-resampler-wasm external or ship its wasm/ folder: docs/audio.md)`,
    );
    expect(((error as AudioConversionError).cause as Error).message).toBe(LOAD_FAILURE);
    expect(b.hits).toBe(0);
    expect(r.stats().providers.map((s) => [s.provider, s.errors, s.breaker])).toEqual([['a', 0, 'closed']]);
  });

  it('stt audio at a rate the provider does not take: AudioConversionError, no provider charged', async () => {
    const { a, b, r } = await pair();
    const audio = (async function* () {
      yield pcmSignal(2205, 22_050);
    })();
    const { items, error } = await drain(
      r.stt({ audio, format: { encoding: 'pcm_s16le', sampleRate: 22_050 } }),
    );
    expect(items).toEqual([]);
    expect(AudioConversionError.isInstance(error)).toBe(true);
    expect((error as AudioConversionError).message).toBe(
      `The resampler for pcm_s16le@22050Hz -> pcm_s16le@16000Hz could not be started: ${LOAD_FAILURE} (a bundled application must keep @echogarden/speex-resampler-wasm external or ship its wasm/ folder: docs/audio.md)`,
    );
    expect([a.hits, b.hits]).toEqual([0, 0]);
    expect(r.stats().providers.filter((s) => s.errors > 0 || s.breaker !== 'closed')).toEqual([]);
  });

  it('a loader failing with a TypeError (a CommonJS bundle: no import.meta.url) is an AudioConversionError too', async () => {
    const failure = new TypeError("Cannot read properties of undefined (reading 'startsWith')");
    loader.failure = failure;
    const { b, r } = await pair();
    const { items, error } = await drain(
      r.tts({ text: 'Hello there.', voice: 'agent', format: { encoding: 'pcm_s16le', sampleRate: 16_000 } }),
    );
    expect(items).toEqual([]);
    expect(AudioConversionError.isInstance(error)).toBe(true);
    expect((error as AudioConversionError).message).toBe(
      `The resampler for pcm_s16le@24000Hz -> pcm_s16le@16000Hz could not be started: ${failure.message} (a bundled application must keep @echogarden/speex-resampler-wasm external or ship its wasm/ folder: docs/audio.md)`,
    );
    expect((error as AudioConversionError).cause).toBe(failure);
    expect(b.hits).toBe(0);
    expect(r.stats().providers.map((s) => [s.provider, s.errors, s.breaker])).toEqual([['a', 0, 'closed']]);
  });

  it('a call that needs no resampling is served as usual', async () => {
    const { r } = await pair();
    const { items, error } = await drain(r.tts({ text: 'Hello there.', voice: 'agent' }));
    expect(error).toBeUndefined();
    expect(Buffer.concat(items.map((c) => c.data))).toEqual(pcmSignal(2400, 24_000));
  });
});
