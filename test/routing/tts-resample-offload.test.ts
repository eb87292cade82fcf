import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ResampleThread } from '../../src/audio/resample-thread.js';
import { AbortError, type AudioFormat, createRouter, type Router } from '../../src/index.js';
import { createOpenAiCompatibleMock, startMockServer } from '../../src/testing/index.js';
import { concatBytes } from '../audio/helpers.js';
import { PROBE_TEST_MS } from '../helpers/import-probe.js';

// router.tts() converting 24 kHz to 16 kHz on the router's worker thread (option
// resampleOffload): the bytes of the event loop, started lazily, ended by close().

const PCM16: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16000, channels: 1 };
const TEXTS = ['Your table is booked for eight.', 'See you then.', 'The kitchen closes at ten tonight.'];

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
  vi.restoreAllMocks();
});

async function serve() {
  // Odd chunk sizes: samples split across chunks, as a provider's socket cuts them.
  const server = await startMockServer({
    provider: createOpenAiCompatibleMock({ script: { speech: { chunkBytes: 1201 } } }),
  });
  cleanup.push(() => server.close());
  return server.url;
}

function routerOn(url: string, resampleOffload: number | false | undefined): Router {
  const router = createRouter(
    {
      providers: {
        a: {
          kind: 'openai-compatible',
          baseUrl: `${url}/v1`,
          tts: { voices: { agent: 'alloy' }, responseFormat: 'pcm', sampleRate: 24000 },
        },
      },
      // No deadline to miss: what these tests check is the bytes and the thread, and the first
      // chunk of a call waits for the worker thread to start (its module and the resampler's
      // WebAssembly), which on a loaded machine took longer than the 10 s first-chunk default.
      routes: {
        tts: {
          providers: ['a'],
          connectTimeoutMs: 60_000,
          firstChunkTimeoutMs: false,
          idleTimeoutMs: 60_000,
        },
      },
    },
    resampleOffload === undefined ? {} : { resampleOffload },
  );
  cleanup.push(() => router.close());
  return router;
}

/** Each chunk's bytes of one tts() call at 16 kHz. */
async function speak(router: Router, text: string, signal?: AbortSignal): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const chunk of router.tts({
    text,
    voice: 'agent',
    format: PCM16,
    ...(signal ? { signal } : {}),
  }))
    out.push(chunk.data.slice());
  return out;
}

describe('router.tts() resampling on the worker thread', () => {
  // How the socket cuts the provider's bytes differs from call to call, so the chunks' sizes are
  // not compared here (test/audio/resample-offload.test.ts compares them on fixed cuts).
  it('interleaved calls get the bytes of the event loop, each in order', async () => {
    const url = await serve();
    const threaded = routerOn(url, 0);
    const inline = routerOn(url, false);
    const start = vi.spyOn(ResampleThread.prototype, 'start');
    const got = await Promise.all(TEXTS.map((t) => speak(threaded, t)));
    const want = await Promise.all(TEXTS.map((t) => speak(inline, t)));
    expect(start).toHaveBeenCalled();
    for (let i = 0; i < TEXTS.length; i++) {
      expect(Buffer.from(concatBytes(got[i]!)).equals(Buffer.from(concatBytes(want[i]!)))).toBe(true);
    }
  });

  it('starts no thread at createRouter, at warmup, nor for streams below the threshold', async () => {
    const start = vi.spyOn(ResampleThread.prototype, 'start');
    const url = await serve();
    const router = routerOn(url, undefined);
    await router.warmup();
    await Promise.all(TEXTS.map((t) => speak(router, t)));
    expect(start).not.toHaveBeenCalled();
    const eager = routerOn(url, 0);
    await eager.warmup();
    expect(start).not.toHaveBeenCalled();
    await speak(eager, TEXTS[0]!);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('barge-in: nothing reaches the caller after the abort', async () => {
    const url = await serve();
    const router = routerOn(url, 0);
    const abort = new AbortController();
    const seen: number[] = [];
    let error: unknown;
    try {
      for await (const chunk of router.tts({
        text: TEXTS[2]!,
        voice: 'agent',
        format: PCM16,
        signal: abort.signal,
      })) {
        seen.push(chunk.data.byteLength);
        abort.abort();
      }
    } catch (e) {
      error = e;
    }
    expect(AbortError.isInstance(error)).toBe(true);
    expect(seen).toHaveLength(1);
  });

  it('close() ends the thread; a later router starts its own', async () => {
    const url = await serve();
    const router = routerOn(url, 0);
    const terminate = vi.spyOn(ResampleThread.prototype, 'terminate');
    await speak(router, TEXTS[1]!);
    await router.close();
    expect(terminate).toHaveBeenCalledTimes(1);
    const next = routerOn(url, 0);
    expect((await speak(next, TEXTS[1]!)).length).toBeGreaterThan(0);
  });

  it(
    'the thread does not keep the process alive: a script that never closes its router exits',
    async () => {
      const url = await serve();
      const child = spawn(
        process.execPath,
        [
          fileURLToPath(new URL('../../scripts/run-ts.mjs', import.meta.url)),
          fileURLToPath(new URL('./resample-offload-exit.ts', import.meta.url)),
          url,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
      });
      const [code] = (await once(child, 'exit')) as [number];
      expect(out.trim()).toBe('threaded true, 59520 bytes');
      expect(code).toBe(0);
      // A child that compiles the source with jiti: seconds on a loaded machine (see PROBE_HANG_MS).
    },
    PROBE_TEST_MS,
  );
});
