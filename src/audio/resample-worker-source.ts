/**
 * The resampler worker thread's program, as JavaScript source for
 * `new Worker(source, { eval: true, workerData: { speexUrl } })`: a string rather than a file
 * of the package, so it runs the same from src/ (vitest, jiti), from dist/ (ESM and CJS) and
 * from an installed tarball, with no worker file to locate and no TypeScript loader in the
 * thread. It imports the Speex module from `speexUrl` (the `file:` URL of
 * `@echogarden/speex-resampler-wasm/simd`, resolved by the main thread) and runs Speex's int16
 * path exactly as `Resampler.processEncoded` and `Resampler.flush` do on PCM s16le
 * (resampler.ts), so its bytes are those of an inline converter, bit for bit (tested).
 *
 * Messages in: `{ ops, data, n }`, `ops` an ArrayBuffer of `n` records of OP_INTS int32
 * (`kind, id, a, b, c`), `data` an ArrayBuffer of PCM s16le bytes that PUSH records point into:
 * - OPEN id, a = input rate, b = output rate, c = Speex quality: a new stream state;
 * - PUSH id, a = byte offset in `data`, b = byte length: resample those samples;
 * - FLUSH id: the stream's tail (its held-back samples pushed out by silence), then reset;
 * - CLOSE id: free the state (no reply).
 * Messages out: `{ type: 'ready' }` once loaded, or `{ type: 'failed', message }` if the
 * module could not load; then per message in, one reply `{ ops, data, n, errors, inOps, inData }`
 * in the same order: OUT id (a = offset, b = byte length; one per PUSH, possibly empty), TAIL id
 * (the same, one per FLUSH), FAIL id (a = index in `errors`, the message); `inOps` and `inData`
 * are the buffers that came in, handed back for reuse.
 */

/** Int32 fields per record, in both directions: kind, stream id, a, b, c. */
export const OP_INTS = 5;

/** Record kinds from the main thread. */
export const OP_OPEN = 1;
export const OP_PUSH = 2;
export const OP_FLUSH = 3;
export const OP_CLOSE = 4;

/** Record kinds from the worker. */
export const OP_OUT = 1;
export const OP_TAIL = 2;
export const OP_FAIL = 3;

/** The worker's source (see the module comment). */
export const RESAMPLE_WORKER_SOURCE = `'use strict';
(async () => {
  const { parentPort, workerData } = await import('node:worker_threads');
  const IO = 8192;
  let m, inPtr, outPtr, lens;
  try {
    const { default: instantiate } = await import(workerData.speexUrl);
    // print/printErr to nothing, as speex-wasm.ts QUIET_MODULE_OPTIONS (a missing .wasm is reported as 'failed').
    m = await instantiate({ print: () => {}, printErr: () => {} });
    inPtr = m._malloc(IO * 4);
    outPtr = m._malloc(IO * 4);
    lens = m._malloc(12);
  } catch (error) {
    parentPort.postMessage({ type: 'failed', message: String((error && error.message) || error) });
    return;
  }
  const streams = new Map();
  let scratch = new Uint8Array(1 << 18);
  let used = 0;
  let outOps = new Int32Array(${OP_INTS} * 1024);
  let n = 0;
  let errors = [];
  const reserve = (bytes) => {
    if (used + bytes <= scratch.length) return;
    const grown = new Uint8Array(Math.max(scratch.length * 2, used + bytes));
    grown.set(scratch.subarray(0, used));
    scratch = grown;
  };
  const record = (kind, id, a, b) => {
    if ((n + 1) * ${OP_INTS} > outOps.length) {
      const grown = new Int32Array(outOps.length * 2);
      grown.set(outOps);
      outOps = grown;
    }
    const at = n++ * ${OP_INTS};
    outOps[at] = kind;
    outOps[at + 1] = id;
    outOps[at + 2] = a;
    outOps[at + 3] = b;
    outOps[at + 4] = 0;
  };
  // Speex's int16 call on k samples in the input area, at most \`room\` out, appended to scratch.
  const step = (s, k, room) => {
    m.HEAPU32[lens >> 2] = k;
    m.HEAPU32[(lens >> 2) + 1] = room;
    m._speex_resampler_process_int(s.state, 0, inPtr, lens, outPtr, lens + 4);
    const consumed = m.HEAPU32[lens >> 2];
    const produced = m.HEAPU32[(lens >> 2) + 1];
    if (produced > 0) {
      reserve(produced * 2);
      scratch.set(m.HEAPU8.subarray(outPtr, outPtr + produced * 2), used);
      used += produced * 2;
    }
    return [consumed, produced];
  };
  const ops = {
    [${OP_OPEN}](id, inRate, outRate, quality) {
      const state = m._speex_resampler_init(1, inRate, outRate, quality, lens + 8);
      if (state === 0)
        throw new Error('the Speex resampler refused ' + inRate + ' -> ' + outRate + ' Hz (error ' + m.HEAP32[(lens + 8) >> 2] + ')');
      m._speex_resampler_skip_zeros(state);
      streams.set(id, { state, inRate, outRate, inFrames: 0, outFrames: 0 });
    },
    [${OP_PUSH}](id, offset, length, _c, data) {
      const s = streams.get(id);
      if (s === undefined) throw new Error('no stream ' + id);
      const start = used;
      const total = length >> 1;
      s.inFrames += total;
      let at = 0;
      while (at < total) {
        const k = Math.min(IO, total - at);
        m.HEAPU8.set(data.subarray(offset + at * 2, offset + (at + k) * 2), inPtr);
        const [consumed, produced] = step(s, k, IO);
        if (consumed === 0 && produced === 0) throw new Error('the Speex resampler made no progress');
        at += consumed;
      }
      s.outFrames += (used - start) >> 1;
      record(${OP_OUT}, id, start, used - start);
    },
    [${OP_FLUSH}](id) {
      const s = streams.get(id);
      if (s === undefined) throw new Error('no stream ' + id);
      const start = used;
      const need = Math.round((s.inFrames * s.outRate) / s.inRate) - s.outFrames;
      const k = Math.min(IO, Math.ceil((need * s.inRate) / s.outRate) + 1024);
      let have = 0;
      for (let round = 0; have < need && round < 64; round++) {
        m.HEAPU8.fill(0, inPtr, inPtr + k * 2);
        have += step(s, k, Math.min(IO, need - have))[1];
      }
      m._speex_resampler_reset_mem(s.state);
      m._speex_resampler_skip_zeros(s.state);
      s.inFrames = 0;
      s.outFrames = 0;
      record(${OP_TAIL}, id, start, used - start);
    },
    [${OP_CLOSE}](id) {
      const s = streams.get(id);
      if (s === undefined) return;
      streams.delete(id);
      m._speex_resampler_destroy(s.state);
    },
  };
  parentPort.on('message', (message) => {
    const inOps = new Int32Array(message.ops);
    const data = new Uint8Array(message.data);
    used = 0;
    n = 0;
    errors = [];
    for (let i = 0; i < message.n; i++) {
      const at = i * ${OP_INTS};
      const id = inOps[at + 1];
      try {
        ops[inOps[at]](id, inOps[at + 2], inOps[at + 3], inOps[at + 4], data);
      } catch (error) {
        const s = streams.get(id);
        if (s !== undefined) {
          streams.delete(id);
          m._speex_resampler_destroy(s.state);
        }
        record(${OP_FAIL}, id, errors.length, 0);
        errors.push(String((error && error.message) || error));
      }
    }
    const outData = scratch.slice(0, used).buffer;
    const replyOps = outOps.slice(0, n * ${OP_INTS}).buffer;
    parentPort.postMessage(
      { ops: replyOps, data: outData, n, errors, inOps: message.ops, inData: message.data },
      [replyOps, outData, message.ops, message.data],
    );
  });
  parentPort.postMessage({ type: 'ready' });
})();
`;
