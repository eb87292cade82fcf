import type { Delay } from './delay.js';
import type { MockScript } from './mock-script.js';
import type { RecordedRequest, RequestOutcome } from './recorded-request.js';
import { sseMalformed } from './sse.js';

/** What an endpoint wants to send on success, before the script's faults are applied. */
export interface BodyPlan {
  /** HTTP status. Default: 200. */
  status?: number;
  /** Response headers (Content-Type at least). */
  headers: Record<string, string>;
  /** Body chunks in order. */
  chunks: Uint8Array[];
  /** SSE streams only: the frames that end the stream normally (left out by `endWithoutDone`). */
  closing?: Uint8Array[];
  /** SSE streams only: the frames of an in-stream error (`errorEventAfterChunks`). */
  errorFrames?: Uint8Array[];
}

/** What {@link scriptedResponse} needs besides the plan. */
export interface ScriptedResponseContext {
  script: MockScript;
  delay: Delay;
  /** Aborts when the client goes away. */
  signal: AbortSignal;
  record: RecordedRequest;
  finish: (outcome: Exclude<RequestOutcome, 'pending'>) => void;
}

const RESET = Symbol('reset');

/** The error a body stream fails with when the script resets the connection (msw shows it to the client). */
function resetError(): TypeError {
  const cause = Object.assign(new Error('connection reset by the mock server'), { code: 'ECONNRESET' });
  return new TypeError('terminated', { cause });
}

function abortError(): Error {
  return new DOMException('The client went away', 'AbortError');
}

/**
 * The success response of `plan` with the script applied: first-chunk delay, chunk gaps,
 * reset, stall, error event, malformed frame and truncation (see MockScript for the
 * rules). The body is pulled (high-water mark 0), so a chunk is made only when the consumer
 * reads, and `record.chunksSent` counts chunks handed over. When `context.signal` aborts or the
 * body is cancelled, the record ends as `'aborted'` and a pending read rejects with AbortError.
 * `headersDelayMs` and a reset before the headers are the caller's job.
 */
export function scriptedResponse(plan: BodyPlan, context: ScriptedResponseContext): Response {
  const { script, delay, record, finish } = context;
  const stop = new AbortController();
  const framed = plan.errorFrames !== undefined;
  const queue = [...plan.chunks, ...(framed && script.endWithoutDone ? [] : (plan.closing ?? []))];
  let controller!: ReadableStreamDefaultController<Uint8Array>;

  const goAway = () => {
    if (stop.signal.aborted) return;
    stop.abort();
    finish('aborted');
    try {
      controller.error(abortError());
    } catch {
      // already closed or errored
    }
  };
  if (context.signal.aborted) queueMicrotask(goAway);
  else context.signal.addEventListener('abort', goAway, { once: true });

  async function* produce(): AsyncGenerator<Uint8Array, void, undefined> {
    let sent = 0;
    let malformedSent = false;
    const send = async function* (bytes: Uint8Array) {
      const wait = sent === 0 ? script.firstChunkDelayMs : script.chunkGapMs;
      if (wait !== undefined && wait > 0) await delay(wait, stop.signal);
      if (stop.signal.aborted) return;
      sent++;
      yield bytes;
    };
    for (;;) {
      if (stop.signal.aborted) return;
      if (sent === script.resetAfterChunks) throw RESET;
      if (sent === script.stallAfterChunks) {
        await new Promise<void>((resolve) => {
          if (stop.signal.aborted) resolve();
          else stop.signal.addEventListener('abort', () => resolve(), { once: true });
        });
        return;
      }
      if (framed && sent === script.errorEventAfterChunks) {
        for (const frame of plan.errorFrames ?? []) yield* send(frame);
        return;
      }
      if (framed && !malformedSent && sent === script.malformedAfterChunks) {
        malformedSent = true;
        yield* send(sseMalformed());
        continue;
      }
      const next = queue.shift();
      if (next === undefined) return;
      yield* send(next);
    }
  }

  const frames = produce();
  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      async pull(c) {
        let step: IteratorResult<Uint8Array, void>;
        try {
          step = await frames.next();
        } catch (error) {
          if (error !== RESET) throw error;
          finish('reset');
          c.error(resetError());
          return;
        }
        if (stop.signal.aborted) return;
        if (step.done) {
          finish('completed');
          c.close();
          return;
        }
        record.chunksSent++;
        c.enqueue(step.value);
      },
      cancel() {
        goAway();
      },
    },
    { highWaterMark: 0 },
  );
  record.status = plan.status ?? 200;
  return new Response(body, { status: record.status, headers: plan.headers });
}
