import type { Delay } from '../delay.js';
import { realDelay } from '../delay.js';
import { checkFactoryOptions } from '../mock-options.js';
import type { MockProvider } from '../mock-provider.js';
import type { CallContext, PerCall } from '../per-call.js';
import { resolvePerCall, resolveScript } from '../per-call.js';
import type { RecordedRequest } from '../recorded-request.js';
import { createRecord } from '../recorded-request.js';
import { headerRecord } from '../request-body.js';
import type { BodyPlan } from '../scripted-body.js';
import { scriptedResponse } from '../scripted-body.js';
import { assertSageMakerReply, checkKnownKeys, sageMakerReplyProblem } from './endpoint-checks.js';
import { sageMakerErrorResponse, sageMakerErrorType } from './errors.js';
import type { SageMakerCallContext, SageMakerEndpoint, SageMakerReply, SageMakerScript } from './types.js';
import {
  corruptMessage,
  joinParts,
  partBytes,
  payloadPartMessage,
  recut,
  streamErrorMessage,
} from './wire.js';

/**
 * Cold starts: a call that comes `afterIdleMs` or more after the endpoint's last activity (or
 * its first call) waits `delayMs` more before its headers, like a scaled-in endpoint loading
 * its model.
 *
 * @example
 * ```ts
 * const coldStart: SageMakerColdStart = { afterIdleMs: 60_000, delayMs: 2_000 };
 * ```
 */
export interface SageMakerColdStart {
  /** Idle time after which the next call is a cold start, in ms since the endpoint's last activity. */
  afterIdleMs: number;
  /** Extra wait of a cold start before the response headers, in ms. */
  delayMs: number;
}

/**
 * Options of {@link createSageMakerMock} and `startSageMakerEmulator`. Everything is optional.
 *
 * @example
 * ```ts
 * const options: SageMakerMockOptions = { endpoints: { llm: sageMakerChatEndpoint() }, coldStart: { afterIdleMs: 1000, delayMs: 300 } };
 * ```
 */
export interface SageMakerMockOptions {
  /** Endpoints by name; a call to any other name is a 400 `ValidationError` (endpoint not found). */
  endpoints?: Record<string, SageMakerEndpoint> | undefined;
  /** Script of endpoints that have none (per call). */
  script?: PerCall<SageMakerScript> | undefined;
  /** Cold-start mode; omitted: never cold. */
  coldStart?: SageMakerColdStart | undefined;
  /**
   * Require a SigV4 `Authorization` header (`AWS4-HMAC-SHA256 ...`), as SageMaker does; it is
   * not verified. Default true: a request without one gets 403 `MissingAuthenticationTokenException`.
   */
  requireSignature?: boolean | undefined;
  /**
   * Verify the `:chunk-signature` chain of bidirectional streams with this secret key (the
   * emulator recomputes each event signature with node:crypto); failures are counted in the
   * stream's record (`badSignatures`). Omitted: signatures are not checked.
   */
  verifySignatures?:
    | {
        /** The AWS secret access key the client signs with (the config's `credentials.secretAccessKey`). */
        secretAccessKey: string;
      }
    | undefined;
  /** Waits for the script's delays. Default: real timers. */
  delay?: Delay | undefined;
  /** Clock in ms, for `receivedAtMs` and cold starts. Default: `performance.now()`. */
  now?: (() => number) | undefined;
}

/**
 * The SageMaker Runtime mock: a {@link MockProvider} (served by msw handlers or a loopback
 * server) with per-endpoint call counts and a count of cold starts.
 *
 * @example
 * ```ts
 * const mock: SageMakerMock = createSageMakerMock({ endpoints: { llm: sageMakerChatEndpoint() } });
 * ```
 */
export interface SageMakerMock extends MockProvider {
  /** Calls received so far by endpoint `name` (all operations). */
  calls(name: string): number;
  /** Calls that paid a cold start, in order: endpoint name and call number. */
  readonly coldStarts: ReadonlyArray<{ endpointName: string; call: number }>;
  /** Forgets the recorded requests, call numbers and cold-start state. */
  reset(): void;
  /**
   * The emulator's shared state (recorded requests, call numbers per endpoint, cold starts,
   * the options it was made with), which its HTTP/2 side (bidirectional streams) also uses.
   * Not for tests: read `requests`, `calls(name)` and `coldStarts`, and call `reset()`, instead.
   * @internal
   */
  readonly core: SageMakerMockCore;
}

const PATH =
  /^\/endpoints\/([^/]+)\/(invocations-response-stream|invocations-bidirectional-stream|invocations)$/;

/** An operation of SageMaker Runtime the emulator serves, by its path's last segment. */
export type SageMakerOperation =
  | 'invocations'
  | 'invocations-response-stream'
  | 'invocations-bidirectional-stream';

/** One call as the core admits it: its record, context and script, or an error answer. */
export interface AdmittedCall {
  record: RecordedRequest;
  finish: (outcome: 'completed' | 'aborted' | 'reset') => void;
  context: SageMakerCallContext;
  endpoint: SageMakerEndpoint;
  script: SageMakerScript;
}

/**
 * The part of the emulator shared by its HTTP/1.1 and HTTP/2 sides: recording, call numbers,
 * endpoint lookup, signature check, cold start, delays and scripted HTTP errors.
 * @internal
 */
export class SageMakerMockCore {
  readonly requests: RecordedRequest[] = [];
  readonly coldStarts: Array<{ endpointName: string; call: number }> = [];
  readonly delay: Delay;
  readonly now: () => number;
  private readonly counts = new Map<string, number>();
  private readonly lastActive = new Map<string, number>();
  private requestIds = 0;
  private sessions = 0;

  constructor(readonly options: SageMakerMockOptions) {
    this.delay = options.delay ?? realDelay;
    this.now = options.now ?? (() => performance.now());
  }

  calls(name: string): number {
    return this.counts.get(name) ?? 0;
  }

  reset(): void {
    this.requests.length = 0;
    this.coldStarts.length = 0;
    this.counts.clear();
    this.lastActive.clear();
  }

  nextRequestId(): string {
    this.requestIds++;
    return `00000000-0000-4000-8000-${String(this.requestIds).padStart(12, '0')}`;
  }

  nextSessionId(): string {
    this.sessions++;
    return `sess-${this.sessions}`;
  }

  /** Marks activity on an endpoint now (the end of a response counts too). */
  touch(name: string): void {
    this.lastActive.set(name, this.now());
  }

  /**
   * Records a call and decides it up to the start of its answer: path, method, signature,
   * endpoint, headers delay (plus a cold start), scripted failure. Returns the admitted call,
   * or the error Response to send (already recorded).
   */
  async admit(
    method: string,
    url: URL,
    headers: Record<string, string>,
    body: Uint8Array,
    signal: AbortSignal,
  ): Promise<{ call: AdmittedCall; operation: SageMakerOperation } | { response: Response }> {
    const match = PATH.exec(url.pathname);
    const endpointName = match ? decodeURIComponent(match[1]!) : undefined;
    const call = endpointName === undefined ? 1 : (this.counts.get(endpointName) ?? 0) + 1;
    if (endpointName !== undefined) this.counts.set(endpointName, call);
    const { record, finish } = createRecord({
      endpoint: endpointName ?? 'unknown',
      call,
      method,
      path: url.pathname,
      url: url.href,
      headers,
      receivedAtMs: this.now(),
    });
    record.body = recordedBody(body, headers['content-type']);
    this.requests.push(record);
    const requestId = this.nextRequestId();
    const fail = (
      status: number,
      type: string,
      message: string,
      extra: { body?: unknown; retryAfter?: string } = {},
    ) => {
      record.status = status;
      finish('completed');
      return { response: sageMakerErrorResponse(status, type, message, { ...extra, requestId }) };
    };
    if (!match || endpointName === undefined) {
      return fail(
        404,
        'UnknownOperationException',
        `No SageMaker Runtime operation at ${method} ${url.pathname}`,
      );
    }
    if (method !== 'POST') return fail(405, 'ValidationError', `Method ${method} not allowed`);
    const auth = headers.authorization;
    if ((this.options.requireSignature ?? true) && !auth?.startsWith('AWS4-HMAC-SHA256 ')) {
      return fail(403, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
    }
    const endpoint = this.options.endpoints?.[endpointName];
    if (!endpoint) {
      return fail(400, 'ValidationError', `Endpoint ${endpointName} of account 000000000000 not found.`);
    }
    const json = parseJson(body);
    const context: SageMakerCallContext = { call, request: record, endpointName, body, json };
    const base: CallContext = { call, request: record };
    const script = resolveScript(endpoint.script ?? this.options.script, base);

    let wait = script.headersDelayMs ?? 0;
    const cold = this.options.coldStart;
    const last = this.lastActive.get(endpointName);
    if (cold && (last === undefined || this.now() - last >= cold.afterIdleMs)) {
      wait += cold.delayMs;
      this.coldStarts.push({ endpointName, call });
    }
    this.touch(endpointName);
    if (wait > 0) await this.delay(wait, signal);
    if (signal.aborted) {
      finish('aborted');
      return { response: Response.error() };
    }
    if (script.failTimes !== undefined && call <= script.failTimes) {
      const status = script.failStatus ?? 500;
      return fail(
        status,
        script.errorType ?? sageMakerErrorType(status),
        `mock failure ${call} of ${script.failTimes}`,
        {
          ...(script.failBody !== undefined ? { body: script.failBody } : {}),
          ...(script.retryAfter !== undefined ? { retryAfter: script.retryAfter } : {}),
        },
      );
    }
    return { call: { record, finish, context, endpoint, script }, operation: match[2] as SageMakerOperation };
  }
}

function parseJson(body: Uint8Array): unknown {
  if (body.byteLength === 0 || (body[0] !== 0x7b && body[0] !== 0x5b)) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(body));
  } catch {
    return undefined;
  }
}

/** A request body for the record: parsed JSON, else UTF-8 text for text types, else the bytes. */
function recordedBody(body: Uint8Array, contentType: string | undefined): unknown {
  if (body.byteLength === 0) return undefined;
  const json = parseJson(body);
  if (json !== undefined) return json;
  if (contentType?.startsWith('text/')) return new TextDecoder().decode(body);
  return body;
}

/**
 * A mock of the SageMaker Runtime API over web `Request`/`Response` (serve it with
 * `sageMakerHandlers` through msw, or use `startSageMakerEmulator`, which also speaks HTTP/2).
 * Operations (SageMaker Runtime API reference):
 * - `POST /endpoints/{name}/invocations-response-stream`: 200 with an
 *   `application/vnd.amazon.eventstream` body: one `PayloadPart` message per reply part (both
 *   CRCs, 5.2), `X-Amzn-SageMaker-Content-Type` and `x-Amzn-Invoked-Production-Variant`
 *   headers; scripted stream errors are `ModelStreamError` / `InternalStreamFailure` exception
 *   messages (5.3);
 * - `POST /endpoints/{name}/invocations`: the reply's parts joined as one body; a
 *   `X-Amzn-SageMaker-Session-Id: NEW_SESSION` request opens a stateful session
 *   (`X-Amzn-SageMaker-New-Session-Id: sess-<n>; Expires=<ISO time>`).
 * HTTP errors carry `x-amzn-errortype` (5.4). Every request is recorded.
 *
 * Throws a TypeError naming this function and the field (e.g.
 * `createSageMakerMock: options.script.failTimes: expected a number, got a string`) when an option is
 * unknown or of the wrong type.
 *
 * @example
 * ```ts
 * const mock = createSageMakerMock({ endpoints: { llm: sageMakerChatEndpoint({ payload: 'tgi' }) } });
 * const response = await mock.handle(new Request('http://sm.test/endpoints/llm/invocations-response-stream', init));
 * ```
 */
export function createSageMakerMock(options: SageMakerMockOptions = {}): SageMakerMock {
  // The emulator's `port` and `host` pass through here too, so the check allows them.
  checkFactoryOptions('createSageMakerMock', 'sagemaker', options);
  checkEndpoints(options.endpoints);
  const core = new SageMakerMockCore(options);

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const headers = headerRecord(request.headers);
    let body: Uint8Array;
    try {
      body = new Uint8Array(await request.arrayBuffer());
    } catch {
      return Response.error();
    }
    const admitted = await core.admit(request.method, url, headers, body, request.signal);
    if ('response' in admitted) return admitted.response;
    const { call, operation } = admitted;
    const { record, finish, context, endpoint, script } = call;
    try {
      if (script.resetAfterChunks === 0) {
        finish('reset');
        return Response.error();
      }
      if (operation === 'invocations-bidirectional-stream') {
        record.status = 400;
        finish('completed');
        return sageMakerErrorResponse(400, 'ValidationError', 'The bidirectional stream needs HTTP/2', {
          requestId: core.nextRequestId(),
        });
      }
      const reply = await resolvePerCall(endpoint.reply, context);
      assertSageMakerReply(reply, `endpoint ${context.endpointName}: the reply of call ${context.call}`);
      const variant = headers['x-amzn-sagemaker-target-variant'] ?? 'AllTraffic';
      const responseHeaders: Record<string, string> = {
        'x-amzn-requestid': core.nextRequestId(),
        'x-amzn-invoked-production-variant': variant,
      };
      if (operation === 'invocations') {
        return invokeResponse(core, call, reply, responseHeaders);
      }
      const plan = await streamPlan(reply, script, responseHeaders);
      const response = scriptedResponse(plan, {
        script: { ...script, malformedAfterChunks: undefined },
        delay: core.delay,
        signal: request.signal,
        record,
        finish: (outcome) => {
          core.touch(context.endpointName);
          finish(outcome);
        },
      });
      return response;
    } catch (error) {
      if (request.signal.aborted) {
        finish('aborted');
        return Response.error();
      }
      record.status = 500;
      finish('completed');
      return sageMakerErrorResponse(
        500,
        'InternalFailure',
        `voxroute SageMaker emulator failed: ${error instanceof Error ? error.message : String(error)}`,
        { requestId: core.nextRequestId() },
      );
    }
  }

  return {
    core,
    requests: core.requests,
    coldStarts: core.coldStarts,
    handle,
    calls: (name) => core.calls(name),
    reset: () => core.reset(),
  };
}

/**
 * Checks each endpoint's keys and the replies known when the mock is made (one reply, or the
 * entries of an array; a function's are checked per call): a misspelt `parts` would otherwise
 * answer every call with a 500.
 * @throws TypeError `createSageMakerMock: options.endpoints.<name>...` naming the field.
 */
function checkEndpoints(endpoints: SageMakerMockOptions['endpoints']): void {
  for (const [name, endpoint] of Object.entries(endpoints ?? {})) {
    const where = `createSageMakerMock: options.endpoints.${name}`;
    checkKnownKeys(where, endpoint, ['reply', 'script', 'duplex']);
    const reply: unknown = endpoint.reply;
    if (typeof reply === 'function') continue;
    const entries = Array.isArray(reply)
      ? reply.map((r, i) => [`.reply.${i}`, r] as const)
      : [['.reply', reply] as const];
    for (const [path, value] of entries) {
      const problem = sageMakerReplyProblem(value, `${where}${path}`);
      if (problem) throw new TypeError(problem);
    }
  }
}

/** The event-stream body plan of a reply under a script (see SageMakerScript). */
export async function streamPlan(
  reply: SageMakerReply,
  script: SageMakerScript,
  headers: Record<string, string>,
): Promise<BodyPlan> {
  const encode = (parts: Array<string | Uint8Array>) =>
    recut(parts.map(partBytes), script.partBytes).map((bytes) => payloadPartMessage(bytes));
  const chunks = encode(reply.parts);
  const k = script.malformedAfterChunks;
  if (k !== undefined && k >= 0 && k <= chunks.length) {
    chunks.splice(k, 0, corruptMessage(payloadPartMessage(new TextEncoder().encode('malformed'))));
  }
  return {
    status: 200,
    headers: {
      'content-type': 'application/vnd.amazon.eventstream',
      'x-amzn-sagemaker-content-type': reply.contentType ?? 'application/octet-stream',
      ...headers,
    },
    chunks,
    closing: encode(reply.closing ?? []),
    errorFrames: script.errorEventAfterChunks !== undefined ? [streamErrorMessage(script.errorEvent)] : [],
  };
}

function invokeResponse(
  core: SageMakerMockCore,
  call: AdmittedCall,
  reply: SageMakerReply,
  headers: Record<string, string>,
): Response {
  const body = joinParts([...reply.parts, ...(reply.closing ?? [])].map(partBytes));
  const out: Record<string, string> = {
    'content-type': reply.contentType ?? 'application/octet-stream',
    ...headers,
  };
  const session = call.record.headers['x-amzn-sagemaker-session-id'];
  if (session === 'NEW_SESSION') {
    out['x-amzn-sagemaker-new-session-id'] = `${core.nextSessionId()}; Expires=2030-01-01T00:00:00Z`;
  }
  call.record.status = 200;
  call.record.chunksSent = 1;
  call.finish('completed');
  core.touch(call.context.endpointName);
  return new Response(body, { status: 200, headers: out });
}
