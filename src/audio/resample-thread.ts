import { pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { AbortError } from '../errors/abort-error.js';
import { AudioConversionError } from '../errors/audio-conversion-error.js';
import { resolvePackage } from '../internal/require-package.js';
import {
  OP_CLOSE,
  OP_FAIL,
  OP_FLUSH,
  OP_INTS,
  OP_OPEN,
  OP_OUT,
  OP_PUSH,
  OP_TAIL,
  RESAMPLE_WORKER_SOURCE,
} from './resample-worker-source.js';

/** What the thread hands back to one stream, in the order its records were queued. */
export interface ThreadSink {
  /** The output of one push (PCM s16le; possibly empty): a view into the batch's reply buffer (copy it to keep it). */
  output(data: Uint8Array): void;
  /** The output of a flush (the stream's tail); the stream may push again afterwards. */
  tail(data: Uint8Array): void;
  /** The stream failed in the thread (its state is gone), or the thread did. */
  fail(error: Error): void;
}

/** Records and bytes of the batch being filled on the main thread (sent once per turn of the loop). */
interface Batch {
  ops: Int32Array;
  data: Uint8Array;
  n: number;
  used: number;
}

const OPS_PER_BATCH = 2048;
const BYTES_PER_BATCH = 1 << 18;
/** Batches' buffers kept for reuse (fresh ones cost page faults and gc work on the main thread). */
const SPARE_BATCHES = 4;

/**
 * One worker thread resampling many streams (its program: resample-worker-source.ts). The main
 * thread only copies each stream's PCM s16le bytes into the current batch and, once per turn of
 * the event loop (`setImmediate`), posts the whole batch (its two buffers transferred, not
 * copied); the worker answers each batch with one message whose outputs are handed to each
 * stream's {@link ThreadSink} in record order, as views into the reply's buffer. A stream's
 * records run in the order queued, and one worker runs batches in order, so a stream's outputs
 * come back in order, none lost or repeated.
 *
 * Started by {@link start} (never at import). The worker never keeps the process alive when it
 * has nothing to do: it is `unref()`ed, and `ref()`ed only while a batch is out. A worker that
 * fails (error, exit) fails every open stream with AudioConversionError; {@link terminate}
 * fails them with AbortError. Either way the thread is then unusable ({@link broken}).
 */
export class ResampleThread {
  #worker: Worker | undefined;
  #starting: Promise<void> | undefined;
  readonly #sinks = new Map<number, ThreadSink>();
  #nextId = 1;
  #batch: Batch | undefined;
  readonly #spares: Batch[] = [];
  #scheduled = false;
  /** Batches posted and not answered yet. */
  #outstanding = 0;
  #broken: Error | undefined;
  readonly #send = (): void => this.#post();
  readonly #source: string;

  /** `source`: the worker's program (tests give a faulty one); default the real one. */
  constructor(source: string = RESAMPLE_WORKER_SOURCE) {
    this.#source = source;
  }

  /** Why the thread cannot be used (failed or terminated); undefined while it can. */
  get broken(): Error | undefined {
    return this.#broken;
  }

  /**
   * Starts the worker and loads Speex in it (about 30-60 ms, off the event loop); later calls
   * return the same promise.
   * @throws (rejects) AudioConversionError when the worker cannot be created or the module not
   * loaded in it (e.g. a runtime without `node:worker_threads` eval workers).
   */
  start(): Promise<void> {
    this.#starting ??= this.#spawn();
    return this.#starting;
  }

  async #spawn(): Promise<void> {
    if (this.#broken) throw this.#broken;
    try {
      const { Worker } = await import('node:worker_threads');
      const speexUrl = pathToFileURL(resolvePackage('@echogarden/speex-resampler-wasm/simd')).href;
      const worker = new Worker(this.#source, { eval: true, workerData: { speexUrl } });
      this.#worker = worker;
      worker.unref();
      await new Promise<void>((resolve, reject) => {
        worker.on('message', (message: WorkerReply) => {
          if (message.type === 'ready') resolve();
          else if (message.type === 'failed') reject(new Error(message.message));
          else this.#answer(message);
        });
        worker.once('error', (error) => {
          reject(error);
          this.#fail(new AudioConversionError('The resampler worker thread failed', { cause: error }));
        });
        worker.once('exit', (code) => {
          const error = new AudioConversionError(`The resampler worker thread exited (code ${code})`);
          reject(error);
          this.#fail(error);
        });
      });
    } catch (error) {
      const failed = AudioConversionError.isInstance(error)
        ? error
        : new AudioConversionError('The resampler worker thread could not start', { cause: error });
      this.#fail(failed);
      throw failed;
    }
  }

  /**
   * Opens a stream from `inputRate` to `outputRate` Hz at Speex `quality` (checked by the
   * caller, as Resampler.create checks them); returns its id for {@link push}, {@link flush}
   * and {@link close}. Call after {@link start} resolved.
   */
  open(inputRate: number, outputRate: number, quality: number, sink: ThreadSink): number {
    const id = this.#nextId++;
    this.#sinks.set(id, sink);
    this.#record(OP_OPEN, id, inputRate, outputRate, quality);
    return id;
  }

  /** Queues whole PCM s16le samples of stream `id` (copied now; `data` may be reused at once). */
  push(id: number, data: Uint8Array): void {
    const batch = this.#room(data.byteLength);
    batch.data.set(data, batch.used);
    this.#write(batch, OP_PUSH, id, batch.used, data.byteLength, 0);
    batch.used += data.byteLength;
  }

  /** Queues the end of stream `id`'s audio: its tail comes back through `sink.tail`. */
  flush(id: number): void {
    this.#record(OP_FLUSH, id, 0, 0, 0);
  }

  /** Forgets stream `id` at once (outputs on their way are dropped) and frees its state in the worker. */
  close(id: number): void {
    if (!this.#sinks.delete(id) || this.#broken) return;
    this.#record(OP_CLOSE, id, 0, 0, 0);
  }

  /** Ends the worker; open streams fail with AbortError. Idempotent. */
  async terminate(): Promise<void> {
    this.#fail(new AbortError('The router was closed'));
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker) await worker.terminate();
  }

  /** The batch being filled (a new one, with room for `bytes` at least, if none). */
  #current(bytes = 0): Batch {
    let batch = this.#batch;
    if (batch === undefined) {
      const spare = this.#spares.pop();
      batch =
        spare && spare.data.byteLength >= bytes
          ? spare
          : {
              ops: new Int32Array(OPS_PER_BATCH * OP_INTS),
              data: new Uint8Array(Math.max(BYTES_PER_BATCH, bytes)),
              n: 0,
              used: 0,
            };
      this.#batch = batch;
    }
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#send);
    }
    return batch;
  }

  #record(kind: number, id: number, a: number, b: number, c: number): void {
    this.#write(this.#room(0), kind, id, a, b, c);
  }

  /** The batch to write one record and `bytes` of data into: the current one, or a new one after posting it. */
  #room(bytes: number): Batch {
    if (this.#broken) throw this.#broken;
    const batch = this.#current(bytes);
    if ((batch.n + 1) * OP_INTS <= batch.ops.length && batch.used + bytes <= batch.data.byteLength)
      return batch;
    this.#post();
    return this.#current(bytes);
  }

  #write(batch: Batch, kind: number, id: number, a: number, b: number, c: number): void {
    const at = batch.n++ * OP_INTS;
    const ops = batch.ops;
    ops[at] = kind;
    ops[at + 1] = id;
    ops[at + 2] = a;
    ops[at + 3] = b;
    ops[at + 4] = c;
  }

  /** Posts the current batch (if any), its buffers transferred. */
  #post(): void {
    this.#scheduled = false;
    const batch = this.#batch;
    const worker = this.#worker;
    if (batch === undefined || batch.n === 0 || worker === undefined) return;
    this.#batch = undefined;
    if (this.#outstanding++ === 0) worker.ref();
    const ops = batch.ops.buffer as ArrayBuffer;
    const data = batch.data.buffer as ArrayBuffer;
    worker.postMessage({ ops, data, n: batch.n }, [ops, data]);
  }

  /** One batch's answer: each record to its stream, in order. */
  #answer(reply: BatchReply): void {
    if (--this.#outstanding === 0) this.#worker?.unref();
    // The buffers that went out come back: the next batch reuses them.
    if (this.#spares.length < SPARE_BATCHES && reply.inData.byteLength === BYTES_PER_BATCH)
      this.#spares.push({
        ops: new Int32Array(reply.inOps),
        data: new Uint8Array(reply.inData),
        n: 0,
        used: 0,
      });
    const ops = new Int32Array(reply.ops);
    const data = reply.data;
    const sinks = this.#sinks;
    for (let i = 0; i < reply.n; i++) {
      const at = i * OP_INTS;
      const id = ops[at + 1]!;
      const sink = sinks.get(id);
      if (sink === undefined) continue;
      const kind = ops[at];
      if (kind === OP_OUT) sink.output(new Uint8Array(data, ops[at + 2], ops[at + 3]));
      else if (kind === OP_TAIL) sink.tail(new Uint8Array(data, ops[at + 2], ops[at + 3]));
      else if (kind === OP_FAIL) {
        sinks.delete(id);
        sink.fail(
          new AudioConversionError(`Resampling failed on the worker thread: ${reply.errors[ops[at + 2]!]}`),
        );
      }
    }
  }

  /** The thread is unusable from now on: every open stream fails with `error`. */
  #fail(error: Error): void {
    if (this.#broken) return;
    this.#broken = error;
    this.#batch = undefined;
    const sinks = [...this.#sinks.values()];
    this.#sinks.clear();
    for (const sink of sinks) sink.fail(error);
  }
}

/** A message from the worker. */
type WorkerReply = { type: 'ready' } | { type: 'failed'; message: string } | BatchReply;

/** The worker's answer to one batch (see resample-worker-source.ts). */
interface BatchReply {
  type?: undefined;
  ops: ArrayBuffer;
  data: ArrayBuffer;
  n: number;
  errors: string[];
  inOps: ArrayBuffer;
  inData: ArrayBuffer;
}
