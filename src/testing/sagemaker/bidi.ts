import type { IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import { constants } from 'node:http2';
import { resolvePerCall } from '../per-call.js';
import { headerRecord } from '../request-body.js';
import { assertSageMakerReply } from './endpoint-checks.js';
import { sageMakerErrorResponse } from './errors.js';
import { decodeFrame, type Frame, FrameReader, frameString } from './event-stream.js';
import type { SageMakerMock } from './mock.js';
import { SignatureChain } from './signature.js';
import type {
  SageMakerCallContext,
  SageMakerDuplexPart,
  SageMakerEndpoint,
  SageMakerScript,
} from './types.js';
import { partBytes, payloadPartMessage, recut, streamErrorMessage } from './wire.js';

/**
 * What the emulator records of a bidirectional stream in `RecordedRequest.body`: every input
 * part in order (the signed envelopes removed), whether the end frame (an envelope with an
 * empty payload) arrived, and, when `verifySignatures` is set, whether every envelope's
 * `:chunk-signature` was right.
 *
 * @example
 * ```ts
 * const input = emulator.requests[0]!.body as SageMakerDuplexRecord;
 * expect(input.endFrame).toBe(true);
 * ```
 */
export interface SageMakerDuplexRecord {
  /** Every input part, in order, the signed envelopes removed. */
  parts: SageMakerDuplexPart[];
  /** True once the client's end frame (an envelope with an empty payload) arrived. */
  endFrame: boolean;
  /** Envelopes received, the end frame included. */
  envelopes: number;
  /** Envelopes whose signature did not verify (only counted with `verifySignatures`). */
  badSignatures: number;
  /** Why the input was refused, if it was (a malformed envelope or inner message). */
  problem?: string;
}

/**
 * Serves `POST /endpoints/{name}/invocations-bidirectional-stream` on an HTTP/2 stream
 * (PROTOCOLS.md 5.5): checks the event-stream request headers, answers 200 at once, unwraps
 * each signed envelope (`:date`, `:chunk-signature`; verified with `verifySignatures`), decodes
 * the inner `PayloadPart` (its `DataType`, `CompletionState` headers), stops reading at the end
 * frame, and streams the endpoint's output as `PayloadPart` events with `DataType` and
 * `CompletionState` headers, applying the script (first-chunk delay, gaps, stream error after K
 * parts, reset, stall). A malformed envelope ends the stream with an unmodeled
 * `ValidationException` error message.
 */
export async function handleBidirectional(
  mock: SageMakerMock,
  url: URL,
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  respond: (response: Response) => Promise<void>,
): Promise<void> {
  const core = mock.core;
  const gone = new AbortController();
  stream.once('close', () => gone.abort());
  const record = headerRecord(toHeaders(headers));
  const admitted = await core.admit('POST', url, record, new Uint8Array(0), gone.signal);
  if ('response' in admitted) return respond(admitted.response);
  const { call } = admitted;
  const { finish, context, endpoint, script } = call;
  const requestId = core.nextRequestId();
  if (
    record['content-type'] !== 'application/vnd.amazon.eventstream' ||
    record['x-amz-content-sha256'] !== 'STREAMING-AWS4-HMAC-SHA256-EVENTS'
  ) {
    call.record.status = 400;
    finish('completed');
    return respond(
      sageMakerErrorResponse(
        400,
        'InputValidationError',
        'Expected content-type application/vnd.amazon.eventstream and x-amz-content-sha256 STREAMING-AWS4-HMAC-SHA256-EVENTS',
        { requestId },
      ),
    );
  }
  if (script.resetAfterChunks === 0) {
    finish('reset');
    stream.close(constants.NGHTTP2_INTERNAL_ERROR);
    return;
  }
  const verify = core.options.verifySignatures;
  const input: SageMakerDuplexRecord = { parts: [], endFrame: false, envelopes: 0, badSignatures: 0 };
  call.record.body = input;
  stream.respond({
    ':status': 200,
    'content-type': 'application/vnd.amazon.eventstream',
    'x-amzn-requestid': requestId,
    'x-amzn-invoked-production-variant': record['x-amzn-sagemaker-target-variant'] ?? 'AllTraffic',
  });
  call.record.status = 200;

  let chain: SignatureChain | undefined;
  if (verify) {
    try {
      chain = new SignatureChain(record.authorization ?? '', verify.secretAccessKey);
    } catch {
      input.problem = 'no SigV4 Authorization header';
    }
  }
  const parts = readInput(stream, input, chain);
  const output = endpoint.duplex
    ? endpoint.duplex(parts, context)
    : replyOnce(parts, context, endpoint, script);
  const write = (bytes: Uint8Array) =>
    new Promise<void>((resolve) => {
      if (stream.destroyed || stream.closed) return resolve();
      stream.write(bytes, () => resolve());
    });
  let sent = 0;
  try {
    for await (const item of output) {
      if (gone.signal.aborted) break;
      if (await fault(sent)) return;
      const wait = sent === 0 ? script.firstChunkDelayMs : script.chunkGapMs;
      if (wait) await core.delay(wait, gone.signal);
      if (gone.signal.aborted) break;
      const part = typeof item === 'string' || item instanceof Uint8Array ? { bytes: partBytes(item) } : item;
      const extra: Record<string, string> = {};
      if (part.dataType !== undefined) extra.DataType = part.dataType;
      if (part.completionState !== undefined) extra.CompletionState = part.completionState;
      await write(payloadPartMessage(part.bytes, extra));
      sent++;
      call.record.chunksSent++;
    }
    if (!gone.signal.aborted && (await fault(sent))) return;
  } catch (error) {
    if (!gone.signal.aborted) {
      input.problem ??= error instanceof Error ? error.message : String(error);
      await write(streamErrorMessage({ type: 'ValidationException', message: input.problem }));
    }
  }
  core.touch(context.endpointName);
  if (gone.signal.aborted) {
    finish('aborted');
    return;
  }
  finish('completed');
  stream.end();

  /** Applies the script's fault at position `k`; true when the stream is over. */
  async function fault(k: number): Promise<boolean> {
    if (k === script.resetAfterChunks) {
      finish('reset');
      stream.close(constants.NGHTTP2_INTERNAL_ERROR);
      return true;
    }
    if (k === script.stallAfterChunks) {
      await new Promise<void>((resolve) => {
        if (gone.signal.aborted) resolve();
        else gone.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      finish('aborted');
      return true;
    }
    if (k === script.errorEventAfterChunks) {
      await write(streamErrorMessage(script.errorEvent));
      core.touch(context.endpointName);
      finish('completed');
      stream.end();
      return true;
    }
    return false;
  }
}

/** The request headers of an HTTP/2 stream without its pseudo-headers. */
function toHeaders(headers: IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith(':') || value === undefined) continue;
    out.set(name, Array.isArray(value) ? value.join(', ') : String(value));
  }
  return out;
}

/**
 * The input parts of the stream: each signed envelope unwrapped and its inner `PayloadPart`
 * decoded, until the end frame (or the end of the request body). Records into `record`;
 * throws on a malformed envelope or inner message.
 */
async function* readInput(
  stream: ServerHttp2Stream,
  record: SageMakerDuplexRecord,
  chain: SignatureChain | undefined,
): AsyncGenerator<SageMakerDuplexPart, void, undefined> {
  const reader = new FrameReader();
  for await (const chunk of chunksOf(stream)) {
    let envelopes: Frame[];
    try {
      envelopes = reader.push(chunk);
    } catch (error) {
      throw new Error(
        `malformed event-stream message: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    for (const envelope of envelopes) {
      record.envelopes++;
      const date = envelope.headers[':date'];
      const signature = envelope.headers[':chunk-signature'];
      if (date?.type !== 'timestamp' || signature?.type !== 'binary' || signature.value.byteLength !== 32) {
        throw new Error('envelope without :date timestamp and 32-byte :chunk-signature headers');
      }
      if (chain && !chain.next(date.value, envelope.payload, Buffer.from(signature.value).toString('hex'))) {
        record.badSignatures++;
      }
      if (envelope.payload.byteLength === 0) {
        record.endFrame = true;
        return;
      }
      const inner = decodeFrame(envelope.payload);
      if (
        frameString(inner, ':message-type') !== 'event' ||
        frameString(inner, ':event-type') !== 'PayloadPart'
      ) {
        throw new Error('inner message is not a PayloadPart event');
      }
      const part: SageMakerDuplexPart = { bytes: inner.payload };
      const dataType = frameString(inner, 'DataType');
      const completionState = frameString(inner, 'CompletionState');
      if (dataType !== undefined) part.dataType = dataType;
      if (completionState !== undefined) part.completionState = completionState;
      record.parts.push(part);
      yield part;
    }
  }
}

/**
 * The chunks of a request body. Unlike the stream's own async iterator, leaving early does not
 * destroy the stream (which would reset it with CANCEL while the answer is still being sent):
 * chunks after that are read and dropped.
 */
async function* chunksOf(stream: ServerHttp2Stream): AsyncGenerator<Buffer, void, undefined> {
  const queue: Buffer[] = [];
  let ended = false;
  let failed: unknown;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const onData = (chunk: Buffer) => {
    queue.push(chunk);
    notify();
  };
  const onEnd = () => {
    ended = true;
    notify();
  };
  const onError = (error: unknown) => {
    failed = error;
    notify();
  };
  stream.on('data', onData);
  stream.once('end', onEnd);
  stream.once('close', onEnd);
  stream.once('error', onError);
  try {
    for (;;) {
      const chunk = queue.shift();
      if (chunk) {
        yield chunk;
        continue;
      }
      if (failed !== undefined) throw failed;
      if (ended) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    stream.off('data', onData);
    stream.resume();
  }
}

/**
 * The default answer of an endpoint without `duplex`: the whole input joined (as the request
 * body of `reply`), then the reply's parts (and its closing parts unless `endWithoutDone`), each
 * `DataType` `UTF8` for text or `BINARY`, `CompletionState` `PARTIAL` but the last `COMPLETE`.
 */
async function* replyOnce(
  input: AsyncIterable<SageMakerDuplexPart>,
  context: SageMakerCallContext,
  endpoint: SageMakerEndpoint,
  script: SageMakerScript,
): AsyncGenerator<SageMakerDuplexPart, void, undefined> {
  const chunks: Uint8Array[] = [];
  for await (const part of input) chunks.push(part.bytes);
  const body = new Uint8Array(Buffer.concat(chunks));
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(body));
  } catch {
    json = undefined;
  }
  const reply = resolvePerCall(endpoint.reply, { ...context, body, json });
  assertSageMakerReply(reply, `endpoint ${context.endpointName}: the reply of call ${context.call}`);
  const items = [...reply.parts, ...(script.endWithoutDone ? [] : (reply.closing ?? []))];
  const text = items.every((item) => typeof item === 'string');
  const pieces = recut(items.map(partBytes), script.partBytes);
  for (let i = 0; i < pieces.length; i++) {
    yield {
      bytes: pieces[i]!,
      dataType: text ? 'UTF8' : 'BINARY',
      completionState: i === pieces.length - 1 ? 'COMPLETE' : 'PARTIAL',
    };
  }
}
