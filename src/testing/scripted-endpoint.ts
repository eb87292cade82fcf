import type { Delay } from './delay.js';
import { realDelay } from './delay.js';
import type { MockScript } from './mock-script.js';
import type { MockUpgrade } from './mock-websocket.js';
import type { CallContext } from './per-call.js';
import type { RecordedRequest, RequestOutcome } from './recorded-request.js';
import { createRecord } from './recorded-request.js';
import { completeResponse, headerRecord, readRequestBody } from './request-body.js';
import type { BodyPlan } from './scripted-body.js';
import { scriptedResponse } from './scripted-body.js';

/**
 * One request (or WebSocket upgrade) as a mock received it: its endpoint (undefined when the
 * path names none), its 1-based call number on that endpoint, and its record, already in
 * `requests`.
 */
export interface Arrival<E extends string> {
  endpoint: E | undefined;
  call: number;
  url: URL;
  /** Request headers, lower-cased names (the record's). */
  headers: Record<string, string>;
  record: RecordedRequest;
  finish: (outcome: Exclude<RequestOutcome, 'pending'>) => void;
  context: CallContext;
}

/** Why a mock answers with an error: it picks the provider's error body (and code) by it. */
export type ErrorCause = 'body' | 'auth' | 'path' | 'method' | 'check' | 'failure' | 'plan' | 'crash';

/** An error status and its message, before the provider's error shape is put on it. */
export interface Refusal {
  status: number;
  message: string;
}

/** What every mock says about its errors and scripts, HTTP or WebSocket. */
export interface EndpointHandling<E extends string, S extends MockScript> {
  /** The provider's error body for `status` and `message` (a scripted `failBody` replaces it). */
  error(status: number, message: string, arrival: Arrival<E>, cause: ErrorCause): unknown;
  /** The 401 message when the request's credentials are refused; undefined when they are fine. */
  auth?(arrival: Arrival<E>): string | undefined;
  /** The script of this call (a call on a known endpoint). */
  script(arrival: Arrival<E> & { endpoint: E }): S;
  /** Message of a scripted failure. Default: `mock failure <call> of <failTimes>`. */
  failureMessage?(call: number, failTimes: number): string;
  /** The endpoints served this way (HTTP, or WebSocket); a call on another one is a 404. Default: all. */
  serves?: readonly E[];
  /** The HTTP method of each endpoint that does not take `POST` (e.g. `{ models: 'GET' }`); another method is a 405. */
  methods?: Partial<Record<E, string>>;
}

/** What an HTTP endpoint adds: the success plan and the checks before it. */
export interface HttpHandling<E extends string, S extends MockScript> extends EndpointHandling<E, S> {
  /** Headers on every answer sent whole (errors, and `{ status, body }` plans), e.g. a request id. */
  errorHeaders?(arrival: Arrival<E>): Record<string, string>;
  /** The answer to a multipart body that cannot be parsed. Default: none (the body is ignored). */
  unreadableBody?: Refusal;
  /** Checks once path and method are right (e.g. a version header). */
  check?(arrival: Arrival<E> & { endpoint: E }): Refusal | undefined;
  /** The success body, or a refusal (`message`: in the provider's error shape; `body`: sent as it is). */
  plan(
    arrival: Arrival<E> & { endpoint: E },
    script: S,
  ): BodyPlan | Refusal | { status: number; body: unknown };
}

/**
 * What {@link scriptedEndpoint} gives a mock: the record of requests, call numbers per
 * endpoint, and the scripted HTTP and upgrade flows every provider's mock shares.
 */
export interface ScriptedEndpoint<E extends string> {
  readonly requests: RecordedRequest[];
  readonly delay: Delay;
  /** Calls received so far on `endpoint`. */
  calls(endpoint: E): number;
  /** Forgets the records and restarts call numbering at 1. */
  reset(): void;
  /** Numbers and records a request on `endpoint` (undefined: no endpoint). */
  arrive(request: Request, endpoint: E | undefined): Arrival<E>;
  /**
   * Answers one HTTP request. A connection warm-up (`OPTIONS /`, what `router.warmup()` sends)
   * gets an empty 204 and no record. Otherwise: record, body, `auth` (401), path (404), method (405: POST, or
   * the endpoint's own in `handling.methods`),
   * `check`, the script's headers delay, scripted failure (`failStatus`, `failBody`,
   * `Retry-After`), reset before the headers, then `plan` with the script's chunk delays and
   * faults (`scriptedResponse`). Never rejects: a throw becomes a 500 in the provider's shape.
   */
  serve<S extends MockScript>(
    request: Request,
    endpoint: E | undefined,
    handling: HttpHandling<E, S>,
  ): Promise<Response>;
  /**
   * Decides the start of one WebSocket upgrade: record, `auth` (401), path (404), scripted
   * failure; the caller then checks its query and accepts (or calls `refuse`).
   */
  admitUpgrade<S extends MockScript>(
    request: Request,
    endpoint: E | undefined,
    handling: EndpointHandling<E, S>,
  ): Admitted<E, S>;
  /** Refuses an upgrade with `status` and `body` (JSON unless a string); the record ends completed. */
  refuse(arrival: Arrival<E>, status: number, body: unknown): MockUpgrade;
}

/** An upgrade admitted with its script, or refused (the refusal to return). */
export type Admitted<E extends string, S> =
  | { arrival: Arrival<E> & { endpoint: E }; script: S; refused?: undefined }
  | { arrival: Arrival<E>; refused: MockUpgrade };

/** Options of {@link scriptedEndpoint}. */
export interface ScriptedEndpointOptions<E extends string> {
  /** The mock's endpoint names (call counts start at 0 for each). */
  endpoints: readonly E[];
  /** Waits for the script's delays. Default: real timers. */
  delay?: Delay;
  /** Clock for `receivedAtMs`, in ms. Default: `performance.now()`. */
  now?: () => number;
  /** Number requests on no endpoint 1, 2, 3... instead of always 1. Default: false. */
  numberUnknown?: boolean;
}

/** True when the arrival names an endpoint that `handling` serves. */
const served = <E extends string>(
  arrival: Arrival<E>,
  handling: { serves?: readonly E[] },
): arrival is Arrival<E> & { endpoint: E } =>
  arrival.endpoint !== undefined && (handling.serves?.includes(arrival.endpoint) ?? true);

/**
 * True for the connection warm-up the HTTP transport's `preconnect` sends: `OPTIONS /`, no
 * credentials. The mocks answer it with 204 and leave it out of `requests`, so that a test of
 * an app that warms its router sees only the app's own calls.
 */
const isWarmup = (request: Request): boolean =>
  request.method === 'OPTIONS' && new URL(request.url).pathname === '/';

const defaultFailure = (call: number, failTimes: number) => `mock failure ${call} of ${failTimes}`;

/**
 * The part every provider's mock shares: records and call numbers, and the scripted flow of an
 * HTTP request and of a WebSocket upgrade, with the provider's error shapes, credentials and
 * plans plugged in through {@link HttpHandling} / {@link EndpointHandling}.
 */
export function scriptedEndpoint<E extends string>(options: ScriptedEndpointOptions<E>): ScriptedEndpoint<E> {
  const delay = options.delay ?? realDelay;
  const now = options.now ?? (() => performance.now());
  const requests: RecordedRequest[] = [];
  const counts = new Map<E, number>(options.endpoints.map((name) => [name, 0]));
  let unknownCalls = 0;

  function arrive(request: Request, endpoint: E | undefined): Arrival<E> {
    const url = new URL(request.url);
    let call = 1;
    if (endpoint !== undefined) {
      call = (counts.get(endpoint) ?? 0) + 1;
      counts.set(endpoint, call);
    } else if (options.numberUnknown) {
      call = ++unknownCalls;
    }
    const headers = headerRecord(request.headers);
    const { record, finish } = createRecord({
      endpoint: endpoint ?? 'unknown',
      call,
      method: request.method,
      path: url.pathname,
      url: request.url,
      headers,
      receivedAtMs: now(),
    });
    requests.push(record);
    return { endpoint, call, url, headers, record, finish, context: { call, request: record } };
  }

  async function serve<S extends MockScript>(
    request: Request,
    endpoint: E | undefined,
    handling: HttpHandling<E, S>,
  ): Promise<Response> {
    if (isWarmup(request)) return new Response(null, { status: 204 });
    const arrival = arrive(request, endpoint);
    const { record, finish, call, url } = arrival;
    const send = (status: number, body: unknown, headers: Record<string, string> = {}): Response => {
      record.status = status;
      finish('completed');
      return completeResponse(status, body, { ...handling.errorHeaders?.(arrival), ...headers });
    };
    const refuse = (status: number, message: string, cause: ErrorCause) =>
      send(status, handling.error(status, message, arrival, cause));
    const aborted = () => {
      finish('aborted');
      return Response.error();
    };
    try {
      const readable = await readRequestBody(request, record);
      if (!readable && handling.unreadableBody) {
        return refuse(handling.unreadableBody.status, handling.unreadableBody.message, 'body');
      }
      const unauthorized = handling.auth?.(arrival);
      if (unauthorized !== undefined) return refuse(401, unauthorized, 'auth');
      if (!served(arrival, handling)) {
        return refuse(404, `No mock endpoint at ${request.method} ${url.pathname}`, 'path');
      }
      if (request.method !== (handling.methods?.[arrival.endpoint] ?? 'POST'))
        return refuse(405, `Method ${request.method} not allowed`, 'method');
      const problem = handling.check?.(arrival);
      if (problem) return refuse(problem.status, problem.message, 'check');
      const script = handling.script(arrival);
      if (script.headersDelayMs !== undefined && script.headersDelayMs > 0) {
        await delay(script.headersDelayMs, request.signal);
      }
      if (request.signal.aborted) return aborted();
      if (script.failTimes !== undefined && call <= script.failTimes) {
        const status = script.failStatus ?? 500;
        const message = (handling.failureMessage ?? defaultFailure)(call, script.failTimes);
        return send(
          status,
          script.failBody ?? handling.error(status, message, arrival, 'failure'),
          script.retryAfter === undefined ? {} : { 'retry-after': script.retryAfter },
        );
      }
      if (script.resetAfterChunks === 0) {
        finish('reset');
        return Response.error();
      }
      const plan = handling.plan(arrival, script);
      if ('message' in plan) return refuse(plan.status, plan.message, 'plan');
      if ('body' in plan) return send(plan.status, plan.body);
      return scriptedResponse(plan, { script, delay, signal: request.signal, record, finish });
    } catch (error) {
      if (request.signal.aborted) return aborted();
      return refuse(
        500,
        `mock server failed: ${error instanceof Error ? error.message : String(error)}`,
        'crash',
      );
    }
  }

  function refuse(arrival: Arrival<E>, status: number, body: unknown): MockUpgrade {
    arrival.record.status = status;
    arrival.finish('completed');
    return { reject: { status, body: typeof body === 'string' ? body : JSON.stringify(body) } };
  }

  function admitUpgrade<S extends MockScript>(
    request: Request,
    endpoint: E | undefined,
    handling: EndpointHandling<E, S>,
  ): Admitted<E, S> {
    const arrival = arrive(request, endpoint);
    const error = (status: number, message: string, cause: ErrorCause) =>
      refuse(arrival, status, handling.error(status, message, arrival, cause));
    const unauthorized = handling.auth?.(arrival);
    if (unauthorized !== undefined) return { arrival, refused: error(401, unauthorized, 'auth') };
    if (!served(arrival, handling)) {
      return { arrival, refused: error(404, `No mock WebSocket at ${arrival.url.pathname}`, 'path') };
    }
    const script = handling.script(arrival);
    if (script.failTimes !== undefined && arrival.call <= script.failTimes) {
      const status = script.failStatus ?? 500;
      const message = (handling.failureMessage ?? defaultFailure)(arrival.call, script.failTimes);
      return {
        arrival,
        refused: refuse(
          arrival,
          status,
          script.failBody ?? handling.error(status, message, arrival, 'failure'),
        ),
      };
    }
    return { arrival, script };
  }

  return {
    requests,
    delay,
    calls: (endpoint) => counts.get(endpoint) ?? 0,
    reset() {
      requests.length = 0;
      unknownCalls = 0;
      for (const name of options.endpoints) counts.set(name, 0);
    },
    arrive,
    serve,
    admitUpgrade,
    refuse,
  };
}

/**
 * `spec` when it is one script per endpoint (an object naming at least one of `names`), for
 * mocks whose `script` option is either one script for all endpoints or one per endpoint.
 */
export function isPerEndpoint<T extends object>(spec: unknown, names: readonly string[]): spec is T {
  return (
    typeof spec === 'object' &&
    spec !== null &&
    !Array.isArray(spec) &&
    names.some((name) => name in (spec as Record<string, unknown>))
  );
}
