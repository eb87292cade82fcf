import { describe, expect, it } from 'vitest';
import { createAudioConverter } from '../../src/audio/audio-converter.js';
import { ResampleOffload } from '../../src/audio/resample-offload.js';
import { ResampleThread } from '../../src/audio/resample-thread.js';
import { RESAMPLE_WORKER_SOURCE } from '../../src/audio/resample-worker-source.js';
import type { StreamConverter } from '../../src/audio/stream-converter.js';
import { WavReader } from '../../src/audio/wav-reader.js';
import { AbortError } from '../../src/errors/abort-error.js';
import { AudioConversionError } from '../../src/errors/audio-conversion-error.js';
import type { AudioFormat } from '../../src/types/audio.js';
import { concatBytes, firstDifference, fixture } from './helpers.js';

// Resampling on the worker thread (ResampleOffload, ResampleThread): the bytes of the inline
// converter, in order per stream, nothing after an abort or a close, failures as typed errors.

/** The real thread, as the router makes it once its code has loaded. */
const newThread = () => new ResampleThread();

const PCM24: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24000, channels: 1 };
const PCM16: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16000, channels: 1 };
const MULAW8: AudioFormat = { encoding: 'mulaw', sampleRate: 8000, channels: 1 };
const ALAW16: AudioFormat = { encoding: 'alaw', sampleRate: 16000, channels: 1 };

const JFK24 = new WavReader().push(fixture('jfk-24k-s16le.wav')).data;
const JFK8MU = new WavReader().push(fixture('jfk-8k-mulaw.wav')).data;

/** `data` cut into pieces of `sizes` bytes (cycled; whole samples of `width` bytes). */
function cut(data: Uint8Array, sizes: readonly number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let at = 0;
  for (let i = 0; at < data.byteLength; i++) {
    const size = sizes[i % sizes.length]!;
    out.push(data.subarray(at, at + size));
    at += size;
  }
  return out;
}

/** What the inline converter returns for each piece, then its flush. */
async function inline(pieces: Uint8Array[], from: AudioFormat, to: AudioFormat): Promise<Uint8Array[]> {
  const converter = await createAudioConverter(from, to);
  const out = pieces.map((p) => converter.push(p));
  out.push(converter.flush());
  converter.close();
  return out;
}

/** A stream's deliveries, and the converter whose outputs they are. */
async function open(offload: ResampleOffload, from: AudioFormat, to: AudioFormat, signal?: AbortSignal) {
  const got: Uint8Array[] = [];
  const converter = await offload.converter(from, to, (data) => got.push(data.slice()), signal);
  return { got, converter };
}

/** Pushes every piece, flushes, closes: everything delivered. */
async function run(converter: StreamConverter, pieces: Uint8Array[]): Promise<void> {
  for (const piece of pieces) converter.push(piece);
  await converter.flush();
  converter.close();
}

describe('ResampleOffload on the worker thread', () => {
  it.each([
    ['24 kHz PCM s16le -> 16 kHz PCM s16le', PCM24, PCM16, JFK24, [960, 962, 4800, 2, 958]],
    ['24 kHz PCM s16le -> 8 kHz mu-law', PCM24, MULAW8, JFK24, [960, 1920, 480]],
    ['8 kHz mu-law -> 16 kHz A-law', MULAW8, ALAW16, JFK8MU, [160, 161, 799]],
  ] as const)(
    '%s: byte-identical to the inline converter, tail included',
    async (_label, from, to, data, sizes) => {
      const offload = new ResampleOffload(newThread, 0);
      try {
        const pieces = cut(data, sizes);
        const want = concatBytes((await inline(pieces, from, to)).filter((b) => b.byteLength > 0));
        const { got, converter } = await open(offload, from, to);
        expect(converter.threaded).toBe(true);
        await run(converter, pieces);
        const bytes = concatBytes(got);
        expect(bytes.byteLength).toBe(want.byteLength);
        expect(firstDifference(bytes, want)).toBe(-1);
      } finally {
        await offload.close();
      }
    },
  );

  it('each chunk delivered owns its bytes: no view into a batch shared with other streams', async () => {
    const offload = new ResampleOffload(newThread, 0);
    try {
      const delivered: Uint8Array[] = [];
      const a = await offload.converter(PCM24, PCM16, (data) => delivered.push(data));
      const b = await offload.converter(PCM24, PCM16, (data) => delivered.push(data));
      const pieces = cut(JFK24.subarray(0, 9600), [960]);
      for (const piece of pieces) {
        a.push(piece);
        b.push(piece);
      }
      await Promise.all([a.flush(), b.flush()]);
      a.close();
      b.close();
      // 9600 bytes at 24 kHz in 10 pieces per stream, both streams in the same batches.
      expect(delivered.length).toBeGreaterThanOrEqual(20);
      for (const chunk of delivered) {
        expect(chunk.byteOffset).toBe(0);
        expect(chunk.buffer.byteLength).toBe(chunk.byteLength);
      }
    } finally {
      await offload.close();
    }
  });

  it('interleaved streams: each gets its own outputs, in push order, one per non-empty inline output', async () => {
    const offload = new ResampleOffload(newThread, 0);
    try {
      const a = cut(JFK24.subarray(0, 96000), [960]);
      const b = cut(JFK24.subarray(96000, 192000), [1440, 480]);
      const wantA = (await inline(a, PCM24, PCM16)).filter((x) => x.byteLength > 0);
      const wantB = (await inline(b, PCM24, MULAW8)).filter((x) => x.byteLength > 0);
      const sa = await open(offload, PCM24, PCM16);
      const sb = await open(offload, PCM24, MULAW8);
      // Pushed alternately (one batch per turn of the loop holds both streams' chunks), with
      // two chunks of one stream in a row at times, and turns of the loop in between.
      let ia = 0;
      let ib = 0;
      for (let i = 0; ia < a.length || ib < b.length; i++) {
        if (ia < a.length) sa.converter.push(a[ia++]!);
        if (i % 3 === 0 && ia < a.length) sa.converter.push(a[ia++]!);
        if (ib < b.length) sb.converter.push(b[ib++]!);
        if (i % 7 === 0) await Promise.all([sa.converter.settled(), sb.converter.settled()]);
      }
      await Promise.all([sa.converter.flush(), sb.converter.flush()]);
      sa.converter.close();
      sb.converter.close();
      expect(sb.got.map((x) => x.byteLength)).toEqual(wantB.map((x) => x.byteLength));
      expect(firstDifference(concatBytes(sb.got), concatBytes(wantB))).toBe(-1);
      expect(sa.got.map((x) => x.byteLength)).toEqual(wantA.map((x) => x.byteLength));
      expect(firstDifference(concatBytes(sa.got), concatBytes(wantA))).toBe(-1);
    } finally {
      await offload.close();
    }
  });

  it('an abort drops what is on its way at once: nothing is delivered after it', async () => {
    const offload = new ResampleOffload(newThread, 0);
    try {
      const abort = new AbortController();
      const { got, converter } = await open(offload, PCM24, PCM16, abort.signal);
      const pieces = cut(JFK24.subarray(0, 9600), [960]);
      for (const piece of pieces) converter.push(piece);
      // Mid-batch: the ten chunks are queued (not yet posted) when the stream is aborted.
      abort.abort();
      await converter.settled();
      expect(got).toEqual([]);
      converter.close();
      // The thread goes on serving other streams.
      const other = await open(offload, PCM24, PCM16);
      await run(other.converter, pieces);
      expect(concatBytes(other.got).byteLength).toBe(6400);
    } finally {
      await offload.close();
    }
  });

  it('close() drops outputs on their way, resolves a waiting settled(), and frees the count', async () => {
    const offload = new ResampleOffload(newThread, 0);
    try {
      const { got, converter } = await open(offload, PCM24, PCM16);
      expect(offload.active).toBe(1);
      converter.push(JFK24.subarray(0, 960));
      const waiting = converter.settled();
      converter.close();
      await waiting;
      expect(got).toEqual([]);
      expect(offload.active).toBe(0);
      expect(() => converter.push(JFK24.subarray(0, 960))).toThrow('AudioConverter is closed');
    } finally {
      await offload.close();
    }
  });

  it('a stream the worker fails becomes an AudioConversionError on its flush and next push; others go on', async () => {
    const thread = new ResampleThread();
    try {
      await thread.start();
      const failures: Error[] = [];
      const outputs: number[] = [];
      const sink = {
        output: (d: Uint8Array) => outputs.push(d.byteLength),
        tail: (d: Uint8Array) => outputs.push(-d.byteLength),
        fail: (e: Error) => failures.push(e),
      };
      // Quality 99 is out of Speex's range: speex_resampler_init refuses it in the worker.
      const bad = thread.open(24000, 16000, 99, sink);
      thread.push(bad, JFK24.subarray(0, 960));
      const good = new ResampleOffload(() => thread, 0);
      const { got, converter } = await open(good, PCM24, PCM16);
      await run(converter, [JFK24.subarray(0, 960)]);
      expect(concatBytes(got).byteLength).toBe(640);
      expect(failures).toHaveLength(1);
      expect(AudioConversionError.isInstance(failures[0])).toBe(true);
      expect(failures[0]!.message).toMatch(
        /^Resampling failed on the worker thread: the Speex resampler refused 24000 -> 16000 Hz/,
      );
      expect(outputs).toEqual([]);
    } finally {
      await thread.terminate();
    }
  });

  it('a worker that dies fails every open stream with AudioConversionError; later streams resample inline', async () => {
    // The real program, except that the first batch kills the thread.
    const dying = RESAMPLE_WORKER_SOURCE.replace(
      "parentPort.on('message', (message) => {",
      "parentPort.on('message', (message) => { process.exit(7);",
    );
    const warnings: string[] = [];
    const offload = new ResampleOffload(
      () => new ResampleThread(dying),
      0,
      (m) => warnings.push(m),
    );
    try {
      const { converter } = await open(offload, PCM24, PCM16);
      expect(converter.threaded).toBe(true);
      converter.push(JFK24.subarray(0, 960));
      const error = await Promise.resolve(converter.flush()).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(AudioConversionError.isInstance(error)).toBe(true);
      expect((error as Error).message).toBe('The resampler worker thread exited (code 7)');
      expect(() => converter.push(JFK24.subarray(0, 960))).toThrow(error as Error);
      converter.close();
      const next = await open(offload, PCM24, PCM16);
      expect(next.converter.threaded).toBe(false);
      await run(next.converter, [JFK24.subarray(0, 960)]);
      expect(concatBytes(next.got).byteLength).toBe(640);
      expect(warnings).toEqual([
        'The resampler worker thread is not available; resampling stays on the event loop',
      ]);
    } finally {
      await offload.close();
    }
  });

  it('a worker that cannot start: streams resample inline, the warning is given once', async () => {
    const broken =
      "require('node:worker_threads').parentPort.postMessage({ type: 'failed', message: 'no wasm' });";
    const warnings: unknown[] = [];
    const offload = new ResampleOffload(
      () => new ResampleThread(broken),
      0,
      (m, a) => warnings.push([m, a]),
    );
    try {
      const first = await open(offload, PCM24, PCM16);
      const second = await open(offload, PCM24, PCM16);
      expect([first.converter.threaded, second.converter.threaded]).toEqual([false, false]);
      await run(first.converter, [JFK24.subarray(0, 960)]);
      expect(concatBytes(first.got).byteLength).toBe(640);
      second.converter.close();
      expect(warnings).toEqual([
        [
          'The resampler worker thread is not available; resampling stays on the event loop',
          { error: 'AudioConversionError: The resampler worker thread could not start' },
        ],
      ]);
    } finally {
      await offload.close();
    }
  });

  it('a thread whose code cannot be loaded: streams resample inline, the warning is given once, no second load', async () => {
    const warnings: unknown[] = [];
    let made = 0;
    const offload = new ResampleOffload(
      async () => {
        made++;
        throw new Error('Cannot find module deferred-code-XXXX.js');
      },
      0,
      (m, a) => warnings.push([m, a]),
    );
    try {
      const first = await open(offload, PCM24, PCM16);
      const second = await open(offload, PCM24, PCM16);
      expect([first.converter.threaded, second.converter.threaded]).toEqual([false, false]);
      await run(first.converter, [JFK24.subarray(0, 960)]);
      expect(concatBytes(first.got).byteLength).toBe(640);
      second.converter.close();
      expect(made).toBe(1);
      expect(offload.thread).toBeUndefined();
      expect(warnings).toEqual([
        [
          'The resampler worker thread is not available; resampling stays on the event loop',
          { error: 'Error: Cannot find module deferred-code-XXXX.js' },
        ],
      ]);
    } finally {
      await offload.close();
    }
  });

  it('close() while the thread is being made: it is never started, the stream resamples inline', async () => {
    let release!: () => void;
    const loaded = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = 0;
    class CountingThread extends ResampleThread {
      override start(): Promise<void> {
        started++;
        return super.start();
      }
    }
    const offload = new ResampleOffload(async () => {
      await loaded;
      return new CountingThread();
    }, 0);
    const opening = open(offload, PCM24, PCM16);
    await offload.close();
    release();
    const { converter, got } = await opening;
    expect(converter.threaded).toBe(false);
    await run(converter, [JFK24.subarray(0, 960)]);
    expect(concatBytes(got).byteLength).toBe(640);
    expect(started).toBe(0);
  });

  it('close() ends the thread: a stream on it fails with AbortError, later streams resample inline', async () => {
    const offload = new ResampleOffload(newThread, 0);
    const { converter } = await open(offload, PCM24, PCM16);
    converter.push(JFK24.subarray(0, 960));
    const flushed = Promise.resolve(converter.flush()).then(
      () => undefined,
      (e: unknown) => e,
    );
    await offload.close();
    const error = await flushed;
    expect(AbortError.isInstance(error)).toBe(true);
    expect(offload.thread?.broken).toBe(error);
    const after = await open(offload, PCM24, PCM16);
    expect(after.converter.threaded).toBe(false);
    after.converter.close();
  });

  it('starts no thread below the threshold; decides per stream, at its start', async () => {
    const offload = new ResampleOffload(newThread, 2);
    try {
      const a = await open(offload, PCM24, PCM16);
      const b = await open(offload, PCM24, PCM16);
      expect(offload.thread).toBeUndefined();
      // A conversion that does not resample neither counts nor goes to the thread.
      const same = await open(offload, PCM24, { ...PCM24, encoding: 'mulaw' });
      expect([same.converter.threaded, offload.active]).toEqual([false, 2]);
      const c = await open(offload, PCM24, PCM16);
      expect([a.converter.threaded, b.converter.threaded, c.converter.threaded]).toEqual([
        false,
        false,
        true,
      ]);
      expect(offload.active).toBe(3);
      // a's stream stays inline to its end even now that the thread runs.
      await run(a.converter, [JFK24.subarray(0, 960)]);
      expect(concatBytes(a.got).byteLength).toBe(640);
      expect(a.converter.threaded).toBe(false);
      for (const s of [b, c, same]) s.converter.close();
      expect(offload.active).toBe(0);
      // pcm_f32le stays on the event loop whatever the count.
      const f32 = await open(new ResampleOffload(newThread, 0), { ...PCM24, encoding: 'pcm_f32le' }, PCM16);
      expect(f32.converter.threaded).toBe(false);
      f32.converter.close();
    } finally {
      await offload.close();
    }
  });

  it('false: never the thread', async () => {
    const offload = new ResampleOffload(newThread, false);
    const { converter } = await open(offload, PCM24, PCM16);
    expect(converter.threaded).toBe(false);
    converter.close();
    expect(offload.thread).toBeUndefined();
  });
});
