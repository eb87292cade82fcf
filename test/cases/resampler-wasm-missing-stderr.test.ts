/**
 * The resampler's `.wasm` file is missing (an application bundled without it): the real
 * Emscripten glue, pointed at a file that does not exist, fails to load. That failure is
 * reported once, as an AudioConversionError of the call; the glue's own "failed to
 * asynchronously prepare wasm" and "Aborted(...)" lines (console.error by default) must not also
 * land in the application's stderr, neither from the main thread nor from the resampler's
 * worker thread.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ResampleThread } from '../../src/audio/resample-thread.js';
import { RESAMPLE_WORKER_SOURCE } from '../../src/audio/resample-worker-source.js';
import { AudioConversionError } from '../../src/index.js';
import { answerPcm, drain, httpServer, pcmSignal, router } from './wire/servers.js';

const MISSING = '/nowhere/voxroute-test/speex-resampler-simd.wasm';

// The real module, with only its file location changed (as a bundle without the file has it).
vi.mock('@echogarden/speex-resampler-wasm/simd', async (importOriginal) => {
  const real = (await importOriginal()) as { default: (options?: object) => Promise<unknown> };
  return { default: (options: object = {}) => real.default({ ...options, locateFile: () => MISSING }) };
});

/** Everything written to stderr and console.error from now on. */
function captureStderr(): string[] {
  const written: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    written.push(String(chunk));
    const done = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
    done?.();
    return true;
  });
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    written.push(args.map(String).join(' '));
  });
  return written;
}

afterEach(() => {
  vi.restoreAllMocks();
});

// Runs isolated (vitest.config.ts): a shared worker may have the real module loaded already.
describe('the resampler .wasm file is missing', () => {
  it('a call that needs resampling fails with AudioConversionError, and nothing is written to stderr', async () => {
    const server = await httpServer(async (req, res) => {
      for await (const _ of req) {
        // read the request body
      }
      answerPcm(res, pcmSignal(2400, 24_000));
    });
    const r = router(
      {
        providers: { a: { kind: 'openai-compatible', baseUrl: server.url, tts: { voices: { agent: 'v' } } } },
        routes: { tts: { providers: ['a'] } },
      },
      { resampleOffload: false },
    );
    const written = captureStderr();
    const { items, error } = await drain(
      r.tts({ text: 'Hello there.', voice: 'agent', format: { encoding: 'pcm_s16le', sampleRate: 16_000 } }),
    );
    expect(items).toEqual([]);
    expect(AudioConversionError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(`no such file or directory, open '${MISSING}'`);
    expect(written).toEqual([]);
  });

  it("the worker thread's load fails as 'failed', and writes nothing to stderr", async () => {
    // The real program, with the module's file moved away, and a mark on stderr once the load
    // failed: the worker's stderr reaches ours in order, so what came before the mark is in.
    const source = RESAMPLE_WORKER_SOURCE.replace(
      'const { default: instantiate } = await import(workerData.speexUrl);',
      `const { default: real } = await import(workerData.speexUrl);
    const instantiate = (options = {}) => real({ ...options, locateFile: () => ${JSON.stringify(MISSING)} })
      .catch((error) => { process.stderr.write('MARK\\n'); throw error; });`,
    ).replace("'use strict';", "'use strict'; process.stderr.write('START\\n');");
    expect(source).toContain('MARK');
    const written = captureStderr();
    const thread = new ResampleThread(source);
    try {
      const error = await thread.start().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(AudioConversionError.isInstance(error)).toBe(true);
      expect(String((error as Error).cause)).toContain('no such file or directory');
      await expect.poll(() => written.join('')).toContain('MARK');
      expect(written.join('')).toBe('START\nMARK\n');
    } finally {
      await thread.terminate();
    }
  });
});
