import type { ClientHttp2Session, ClientHttp2Stream, IncomingHttpHeaders } from 'node:http2';
import { AbortError, ProtocolError, TimeoutError, type VoxrouteError } from '../../../errors/index.js';
import type { Clock } from '../../../internal/clock.js';
import { AFTER_END_MS } from '../../../transport/drain-rest.js';
import { errorBodyDeadlineMs } from '../../../transport/error-body-deadline.js';
import { mapWireError, redactSecrets } from '../../../transport/index.js';
import { withPartialOutput } from '../../shared/with-partial-output.js';
import type { AttemptContext } from '../../types.js';
import { decodeInScope, openAttemptScope } from '../attempt-scope.js';
import type { SageMakerInputPart } from '../codec.js';
import { withDeadline } from '../deadline.js';
import { invokeError, streamError } from '../errors.js';
import {
  createEventStreamCodec,
  type EventStreamMessageCodec,
  headerString,
  type Message,
  stringHeader,
} from '../event-stream.js';
import { EventStreamReader } from '../event-stream-reader.js';
import type { CredentialSource } from './credentials.js';
import { answerOwed, type InputProgress } from './owed-answer.js';
import { createBidiSigner, STREAMING_PAYLOAD } from './signer.js';
import { WriteStall } from './write-stall.js';

/**
 * node:http2, which takes tens of ms to load: loaded by the first bidirectional stream (or by
 * {@link loadHttp2} ahead of it), not with the adapters' code that holds this module.
 */
function http2(): typeof import('node:http2') {
  return process.getBuiltinModule('node:http2');
}

/** Loads node:http2 now (a preload: the first bidirectional stream then finds it loaded). */
export function loadHttp2(): void {
  http2();
}

/** Where and how one provider's bidirectional streams go. */
export interface BidiTarget {
  provider: string;
  region: string;
  endpointName: string;
  /** Custom endpoint (e.g. the emulator, `http://` for h2c). Default `https://runtime.sagemaker.<region>.amazonaws.com:8443`. */
  endpointUrl?: string;
  targetVariant?: string;
  credentials: CredentialSource;
  secrets?: Record<string, string>;
  clock: Clock;
}

/** Largest error body read for its message, in bytes. */
const MAX_ERROR_BODY = 65_536;

/**
 * The URL of the bidirectional operation: `POST /endpoints/{name}/invocations-bidirectional-stream`
 * on `endpointUrl`, else on `https://runtime.sagemaker.{region}.amazonaws.com:8443` (PROTOCOLS.md 5.5,
 * AWSJS http2 `endpoint/ruleset.ts`).
 */
export function bidiUrl(target: Pick<BidiTarget, 'region' | 'endpointName' | 'endpointUrl'>): URL {
  const base = target.endpointUrl ?? `https://runtime.sagemaker.${target.region}.amazonaws.com:8443`;
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/endpoints/${encodeURIComponent(target.endpointName)}/invocations-bidirectional-stream`;
  url.search = '';
  url.hash = '';
  return url;
}

/**
 * Runs one `InvokeEndpointWithBidirectionalStream` call over node:http2 (PROTOCOLS.md 5.5),
 * built from `@smithy/signature-v4` and the event-stream codec since the SDK's HTTP/2 client
 * package is not available here:
 * - one HTTP/2 session per call (as the SDK isolates event streams), h2c for `http://` URLs;
 * - request headers `content-type: application/vnd.amazon.eventstream`,
 *   `x-amz-content-sha256: STREAMING-AWS4-HMAC-SHA256-EVENTS`, the target variant, and SigV4;
 * - each input part as a `PayloadPart` event (`:message-type: event`, `:event-type: PayloadPart`,
 *   `:content-type: application/octet-stream`, string headers `DataType`, `CompletionState`),
 *   wrapped in a signed envelope (`:date`, `:chunk-signature`, chained from the request's
 *   signature), sent as the input arrives; after the last part, the end frame: a signed
 *   envelope with an empty payload; then the request stream ends;
 * - output `PayloadPart` bytes go to `decode`; `ModelStreamError` / `InternalStreamFailure`
 *   exceptions and unmodeled error messages throw the typed stream error;
 * - output that ends (a clean END_STREAM, or `decode` returning at its end marker) before every
 *   input part was sent is a truncated, retryable ProtocolError (`partialOutput` when output
 *   was yielded): the writer stops and the stream is cancelled at once, rather than input being
 *   sent that nobody reads.
 * Deadlines:
 * - `connectMs` (`connect`): the TCP (and TLS) connection and the server's first SETTINGS frame
 *   (a server that accepts and never speaks HTTP/2 is a connect timeout);
 * - `idleMs` (`idle`), the provider's silence: once all input was sent, the wait for the
 *   response headers, for the first output byte (counted from the end of the input) and between
 *   output parts; while input flows, a write blocked by the server's flow control (it stopped
 *   reading) for `idleMs` with no output meanwhile (see WriteStall). The wait for the caller's
 *   next input chunk never counts: a speaker may pause for long while audio still flows;
 * - `headersMs` (`headers`) and `firstByteMs` (`first-chunk`, in place of `idleMs` before the
 *   first output byte) when set; `totalMs` (`total`).
 * `attempt.signal` or the
 * consumer's `return()` cancels the stream and closes the session at once. HTTP errors map by
 * `x-amzn-errortype` as for response streams (`InputValidationError` 400, `ModelError` 424,
 * `InternalServerError` 500, `ServiceUnavailableError` 503).
 */
export async function* runBidiStream<T>(
  target: BidiTarget,
  input: AsyncIterable<SageMakerInputPart>,
  attempt: AttemptContext,
  decode: (parts: AsyncIterable<Uint8Array>) => AsyncIterable<T>,
  isOutput: (item: T) => boolean,
): AsyncGenerator<T, void, undefined> {
  const { provider, clock, secrets } = target;
  const deadlines = attempt.deadlines;
  const scope = openAttemptScope(attempt, clock, provider);
  const { controller, abortWith, hadOutput } = scope;

  let session: ClientHttp2Session | undefined;
  let stream: ClientHttp2Stream | undefined;
  let stall: WriteStall | undefined;
  const closeAll = () => {
    if (stream && !stream.closed && !stream.destroyed) stream.close(http2().constants.NGHTTP2_CANCEL);
    session?.destroy();
  };
  controller.signal.addEventListener('abort', closeAll, { once: true });
  let finished = false;
  try {
    const url = bidiUrl(target);
    const [encoder, decoder, credentials] = await Promise.all([
      createEventStreamCodec(),
      createEventStreamCodec(),
      target.credentials(),
    ]).catch((error: unknown) => {
      throw scope.failure ?? invokeError(provider, error, deadlines.connectMs ?? 0, secrets);
    });
    if (scope.failure) throw scope.failure;
    const signer = await createBidiSigner(target.region, credentials, encoder);
    // Aborted while the codec, credentials or signer loaded: open no session (the abort's
    // closeAll has already run and would not close one opened now).
    if (scope.failure) throw scope.failure;
    const requestSecrets = { ...secrets, 'x-secret-key': credentials.secretAccessKey };

    session = http2().connect(url.origin);
    session.on('error', () => {});
    const opened = session;
    // Connected once the server has spoken HTTP/2 (its SETTINGS frame): Node's `connect` event
    // comes with the TCP (or TLS) connection alone, and a server that accepts and never speaks
    // would leave the request waiting with no deadline.
    await withDeadline(
      new Promise<void>((resolve, reject) => {
        opened.once('remoteSettings', () => resolve());
        opened.once('error', reject);
        opened.once('close', () =>
          reject(Object.assign(new Error('session closed'), { code: 'ECONNRESET' })),
        );
      }),
      deadlines.connectMs,
      clock,
      () => abortWith(new TimeoutError('connect', deadlines.connectMs!, { provider })),
    ).catch((error: unknown) => {
      throw (
        scope.failure ?? mapWireError(error, { provider, stage: 'request', requestHeaders: requestSecrets })
      );
    });

    const headers: Record<string, string> = {
      host: url.host,
      'content-type': 'application/vnd.amazon.eventstream',
      'x-amz-content-sha256': STREAMING_PAYLOAD,
      // No compressed body: the event-stream reader decodes no content coding.
      'accept-encoding': 'identity',
    };
    if (target.targetVariant !== undefined) headers['x-amzn-sagemaker-target-variant'] = target.targetVariant;
    const signed = await signer.signRequest({ url, headers }, new Date());
    const { host: _host, ...sent } = signed.headers;
    stream = opened.request({ ':method': 'POST', ':path': url.pathname, ...sent }, { endStream: false });
    const live = stream;
    live.on('error', () => {});

    let inputDone = false;
    // Every input part was written (the end frame may still be on its way): the server has all
    // of the input, so its output may end from now on.
    let partsSent = false;
    let markInputEnded!: () => void;
    const inputEnded = new Promise<void>((resolve) => {
      markInputEnded = resolve;
    });
    const progress: InputProgress = { done: () => inputDone, ended: inputEnded };
    const idleMs = deadlines.idleMs;
    const silent = () =>
      abortWith(new TimeoutError('idle', idleMs!, { provider, partialOutput: hadOutput() }));
    const blocked = new WriteStall(clock, idleMs, silent);
    stall = blocked;
    const writer = writeInput(
      live,
      input,
      encoder,
      signer,
      signed.signature,
      controller.signal,
      blocked,
      () => {
        partsSent = true;
      },
    ).then(
      () => {
        inputDone = true;
        markInputEnded();
      },
      (error: unknown) => {
        if (!controller.signal.aborted) abortWith(inputError(provider, error, hadOutput()));
      },
    );
    void writer;

    // The headers are owed once all input was sent (the idle deadline from then); before, a
    // server that holds the input back is caught by the write stall.
    const response = new Promise<IncomingHttpHeaders>((resolve, reject) => {
      live.once('response', resolve);
      live.once('error', reject);
      live.once('close', () => reject(Object.assign(new Error('stream closed'), { code: 'ECONNRESET' })));
    });
    const responseHeaders = await withDeadline(
      answerOwed(response, progress, idleMs, clock, silent),
      deadlines.headersMs,
      clock,
      () => abortWith(new TimeoutError('headers', deadlines.headersMs!, { provider })),
    ).catch((error: unknown) => {
      throw (
        scope.failure ?? mapWireError(error, { provider, stage: 'request', requestHeaders: requestSecrets })
      );
    });
    const status = Number(responseHeaders[':status'] ?? 0);
    if (status !== 200) {
      // The status decides: the first-chunk deadline stands down, the body is read for at most
      // the error-body deadline (one that stalls must not hold the call).
      attempt.onErrorStatus?.(status);
      throw await httpError(provider, status, responseHeaders, live, deadlines.connectMs ?? 0, secrets, {
        clock,
        ms: errorBodyDeadlineMs(idleMs),
      });
    }

    // Not destroyed at the end of the body: a peer's RST_STREAM that follows must still set
    // rstCode (the attempt closes the stream itself, see the finally below).
    const chunks = (
      live as unknown as { iterator(o: { destroyOnReturn: boolean }): AsyncIterator<Buffer> }
    ).iterator({ destroyOnReturn: false });
    const parts = outputParts(live, chunks, decoder, {
      provider,
      clock,
      secrets,
      idleMs,
      firstByteMs: deadlines.firstByteMs,
      input: progress,
      partsSent: () => partsSent,
      stall: blocked,
      hadOutput,
      failure: () => scope.failure,
      abortWith,
    });
    // The body's iterator can end before the stream's close: an RST_STREAM (e.g. INTERNAL_ERROR)
    // is only known then. A stream closed with a non-zero code is cut short, never complete.
    // Output that ends (its end marker, or the body's end) while input is still to be sent is
    // cut short too: the rest of the input would go unanswered (outputParts checks the body's
    // end, here the decoder's end marker).
    const checked = async function* () {
      yield* decode(parts);
      if (!partsSent) throw outputEndedEarly(provider, hadOutput());
      // A decoder that stopped at its end marker left the rest of the body unread: release the
      // body's iterator, whose `readable` listener would keep the stream paused (the rest never
      // read, the stream never closed, resetCode waiting for ever).
      await chunks.return?.();
      const reset = await resetCode(live, controller.signal, clock);
      if (reset !== http2().constants.NGHTTP2_NO_ERROR) throw streamReset(provider, reset, hadOutput());
    };
    yield* decodeInScope(scope, checked(), isOutput);
    finished = true;
  } finally {
    stall?.dispose();
    scope.dispose();
    controller.signal.removeEventListener('abort', closeAll);
    if (!finished && !controller.signal.aborted) controller.abort(new AbortError('Attempt closed'));
    if (!finished) closeAll();
    // Finished: the stream closed on the wire (see resetCode), so nothing is cut by destroying
    // the session now; a graceful close() would keep its socket open until the stream's handle
    // is released, after the call (and possibly after router.close()) returned.
    else session?.destroy();
  }
}

/** The error of the caller's input failing (e.g. its audio iterator threw). */
function inputError(provider: string, error: unknown, partialOutput: boolean): VoxrouteError {
  if (AbortError.isInstance(error) || TimeoutError.isInstance(error)) return error as VoxrouteError;
  return mapWireError(error, { provider, stage: 'body', partialOutput });
}

/**
 * Sends every input part as a signed envelope as it arrives, then the end frame, then ends the
 * request stream. Calls `onPartsSent` once the input has ended and every part was written
 * (before the end frame). Stops when `signal` aborts. Waits for each write to be flushed
 * (backpressure), each wait watched by `stall` (the server's flow control holding it back).
 */
async function writeInput(
  stream: ClientHttp2Stream,
  input: AsyncIterable<SageMakerInputPart>,
  codec: EventStreamMessageCodec,
  signer: Awaited<ReturnType<typeof createBidiSigner>>,
  seed: string,
  signal: AbortSignal,
  stall: WriteStall,
  onPartsSent: () => void,
): Promise<void> {
  let prior = seed;
  const write = (bytes: Uint8Array) =>
    new Promise<void>((resolve, reject) => {
      if (stream.destroyed || stream.closed)
        return reject(Object.assign(new Error('stream closed'), { code: 'EPIPE' }));
      stall.begin();
      stream.write(bytes, (error) => {
        stall.end();
        if (error) reject(error);
        else resolve();
      });
    });
  const send = async (inner: Uint8Array) => {
    const envelope = await signer.envelope(inner, prior, new Date());
    prior = envelope.signature;
    await write(envelope.bytes);
  };
  const iterator = input[Symbol.asyncIterator]();
  try {
    for (;;) {
      if (signal.aborted) return;
      const step = await iterator.next();
      if (step.done) break;
      if (signal.aborted) return;
      const part = step.value;
      const headers: Record<string, ReturnType<typeof stringHeader>> = {
        ':message-type': stringHeader('event'),
        ':event-type': stringHeader('PayloadPart'),
        ':content-type': stringHeader('application/octet-stream'),
      };
      if (part.dataType !== undefined) headers.DataType = stringHeader(part.dataType);
      if (part.completionState !== undefined) headers.CompletionState = stringHeader(part.completionState);
      await send(codec.encode({ headers, body: part.bytes }));
    }
    if (signal.aborted) return;
    onPartsSent();
    await send(new Uint8Array(0));
    stream.end();
  } finally {
    if (signal.aborted) await iterator.return?.();
  }
}

/**
 * The ProviderError of a non-200 answer, read like the SDK reads restJson1 errors (PROTOCOLS.md
 * 5.4): the body up to MAX_ERROR_BODY bytes and for at most `wait.ms` (then the stream is
 * closed, and the error built from the status, the headers and what arrived).
 */
async function httpError(
  provider: string,
  status: number,
  headers: IncomingHttpHeaders,
  stream: ClientHttp2Stream,
  connectMs: number,
  secrets: Record<string, string> | undefined,
  wait: { clock: Clock; ms: number },
): Promise<VoxrouteError> {
  const chunks: Buffer[] = [];
  let size = 0;
  const read = (async () => {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size >= MAX_ERROR_BODY) break;
    }
  })();
  try {
    await withDeadline(read, wait.ms, wait.clock, () => new Error('error body stalled'));
  } catch {
    // a cut or stalled error body still has its status and type
    stream.destroy();
  }
  const text = Buffer.concat(chunks).toString('utf8');
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) body = parsed as Record<string, unknown>;
  } catch {
    // not JSON
  }
  const raw = String(headers['x-amzn-errortype'] ?? body.code ?? body.__type ?? 'UnknownError');
  const name = raw.split(':')[0]!.split('#').pop()!;
  const message =
    body.message ??
    body.Message ??
    // Redact, then cut: a secret the cut splits could no longer be found whole.
    (text.trim() === '' ? undefined : redactSecrets(text.trim(), secrets).slice(0, 200));
  return invokeError(
    provider,
    {
      name,
      message,
      $metadata: { httpStatusCode: status },
      $response: { headers: flatHeaders(headers) },
      ...(typeof body.OriginalStatusCode === 'number' ? { OriginalStatusCode: body.OriginalStatusCode } : {}),
    },
    connectMs,
    secrets,
  );
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !name.startsWith(':'))
      out[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}

interface OutputContext {
  provider: string;
  clock: Clock;
  secrets: Record<string, string> | undefined;
  idleMs: number | undefined;
  firstByteMs: number | undefined;
  /** Whether (and when) all of the input was sent. */
  input: InputProgress;
  /** Whether every input part was written (the end frame may not be yet). */
  partsSent: () => boolean;
  /** Told of each output chunk (the server is alive). */
  stall: WriteStall;
  hadOutput: () => boolean;
  failure: () => VoxrouteError | undefined;
  abortWith: (error: VoxrouteError) => VoxrouteError;
}

/**
 * The bytes of each output `PayloadPart`, in order, decoded from `chunks` (the iterator of
 * `stream`'s response body, which the caller releases) with an {@link EventStreamReader} over
 * the codec (messages reassembled across DATA frames, both CRCs checked; a body that ends
 * inside a message is a truncation ProtocolError).
 */
async function* outputParts(
  stream: ClientHttp2Stream,
  chunks: AsyncIterator<Buffer>,
  codec: EventStreamMessageCodec,
  context: OutputContext,
): AsyncGenerator<Uint8Array, void, undefined> {
  const { provider, clock, secrets, hadOutput } = context;
  const reader = new EventStreamReader(codec, provider);
  /**
   * The next body chunk, within `idleMs` (phase `idle`) once all input was sent: the provider
   * owes its answer then, the first output byte included (`firstByteMs`, phase `first-chunk`,
   * in its place before the first byte when set). A wait that began while input still flowed
   * gets its deadline when the input ends (counted from then), so a server that stalls after
   * the last input part never hangs the call.
   */
  const nextChunk = (): Promise<IteratorResult<Buffer>> => {
    const first = offset === 0 && context.firstByteMs !== undefined && context.firstByteMs > 0;
    const phase = first ? 'first-chunk' : 'idle';
    const ms = first ? context.firstByteMs : context.idleMs;
    return answerOwed(chunks.next(), context.input, ms, clock, () =>
      context.abortWith(new TimeoutError(phase, ms!, { provider, partialOutput: hadOutput() })),
    );
  };
  let offset = 0;
  for (;;) {
    let step: IteratorResult<Buffer>;
    try {
      step = await nextChunk();
    } catch (error) {
      // The server reset the stream (RST_STREAM): cut short, retryable like any truncation.
      if ((error as { code?: unknown }).code === 'ERR_HTTP2_STREAM_ERROR' && !context.failure())
        throw streamReset(provider, stream.rstCode ?? http2().constants.NGHTTP2_INTERNAL_ERROR, hadOutput());
      throw (
        context.failure() ??
        mapWireError(error, { provider, stage: 'body', receivedBytes: offset, partialOutput: hadOutput() })
      );
    }
    if (step.done) {
      if (stream.rstCode !== undefined && stream.rstCode !== http2().constants.NGHTTP2_NO_ERROR) {
        throw (
          context.failure() ??
          mapWireError(Object.assign(new Error(`stream reset (${stream.rstCode})`), { code: 'ECONNRESET' }), {
            provider,
            stage: 'body',
            receivedBytes: offset,
            partialOutput: hadOutput(),
          })
        );
      }
      // A body that ends inside a message was cut short: truncated, never complete.
      try {
        reader.end();
      } catch (error) {
        throw withPartialOutput(error, hadOutput());
      }
      // A clean end while input is still to be sent: the rest would go unanswered (truncated).
      if (!context.partsSent()) throw context.failure() ?? outputEndedEarly(provider, hadOutput());
      return;
    }
    offset += step.value.byteLength;
    context.stall.output();
    let messages: Message[];
    try {
      messages = reader.push(step.value);
    } catch (error) {
      throw withPartialOutput(error, hadOutput());
    }
    for (const message of messages) {
      const type = headerString(message, ':message-type');
      if (type === 'event') {
        if (headerString(message, ':event-type') === 'PayloadPart' && message.body.byteLength > 0)
          yield message.body;
      } else if (type === 'exception') {
        const name = headerString(message, ':exception-type') ?? 'StreamError';
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(new TextDecoder().decode(message.body)) as Record<string, unknown>;
        } catch {
          // no JSON body
        }
        throw streamError(provider, name, body, hadOutput(), secrets);
      } else if (type === 'error') {
        const code = headerString(message, ':error-code') ?? 'StreamError';
        throw streamError(
          provider,
          code,
          { message: headerString(message, ':error-message') },
          hadOutput(),
          secrets,
        );
      }
    }
  }
}

/**
 * The RST_STREAM code the stream closed with (0, NGHTTP2_NO_ERROR, for a clean end), waiting
 * for its `close` event (or the attempt's abort): Node ends the response body's iterator
 * before a peer's RST_STREAM sets `rstCode`, so the end of the body alone proves nothing.
 * Whatever of the body the decoder left unread is read and dropped meanwhile. The wait lasts
 * {@link AFTER_END_MS} at most (on `clock`): a stream still open then, after the decoder's end
 * marker, has given its whole answer, and is cancelled with the session by the caller.
 */
async function resetCode(stream: ClientHttp2Stream, signal: AbortSignal, clock: Clock): Promise<number> {
  if (!stream.closed && !signal.aborted) {
    // A decoder that stopped at its protocol's end marker left the rest of the body unread; the
    // stream closes only once its body is consumed: read what remains and drop it.
    stream.resume();
    await new Promise<void>((resolve) => {
      const done = () => {
        signal.removeEventListener('abort', done);
        stream.off('close', done);
        clock.clearTimeout(timer);
        resolve();
      };
      stream.once('close', done);
      signal.addEventListener('abort', done, { once: true });
      const timer = clock.setTimeout(done, AFTER_END_MS);
    });
  }
  return stream.rstCode ?? http2().constants.NGHTTP2_NO_ERROR;
}

/**
 * The server ended its output (a clean END_STREAM, or its protocol's end marker) before every
 * input part was sent: whatever input follows would go unanswered (speech untranscribed, text
 * unspoken), so the output is cut short, a retryable ProtocolError as for the WebSocket
 * providers' early end.
 */
function outputEndedEarly(provider: string, partialOutput: boolean): ProtocolError {
  return new ProtocolError(
    `Provider '${provider}' ended the bidirectional stream's output before the end of the input (truncated)`,
    { provider, retryable: true, partialOutput },
  );
}

/** A stream the server reset mid-way (RST_STREAM with a non-zero code): truncated, retryable. */
function streamReset(provider: string, code: number, partialOutput: boolean): ProtocolError {
  return new ProtocolError(
    `Provider '${provider}' reset the HTTP/2 stream (RST_STREAM code ${code}) before its end`,
    {
      provider,
      retryable: true,
      partialOutput,
    },
  );
}
