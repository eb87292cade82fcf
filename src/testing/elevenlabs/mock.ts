import type { Delay } from '../delay.js';
import { realDelay } from '../delay.js';
import type { MockProvider } from '../mock-provider.js';
import type { MockScript } from '../mock-script.js';
import { DEFAULT_CHUNK_BYTES } from '../mock-script.js';
import type { MockUpgrade } from '../mock-websocket.js';
import type { CallContext, PerCall } from '../per-call.js';
import { resolvePerCall } from '../per-call.js';
import type { RecordedRequest } from '../recorded-request.js';
import { createRecord } from '../recorded-request.js';
import { completeResponse, headerRecord, readRequestBody } from '../request-body.js';
import { scriptedResponse } from '../scripted-body.js';
import type { MockElevenLabsSpeech } from './audio.js';
import { elevenLabsErrorBody } from './errors.js';
import { mockOutputFormat, outputFormatProblem, streamPlan } from './http.js';
import { createSocketRecord, type ElevenLabsSocketRecord } from './recorded-socket.js';
import type { ElevenLabsScripts, ElevenLabsSocketScript } from './script.js';
import { type ElevenLabsAlignmentDurationsKey, runStreamInput } from './stream-input.js';

/**
 * The endpoints of the ElevenLabs mock: `'stream'` (`POST /v1/text-to-speech/{voice_id}/stream`)
 * and `'stream-input'` (the WebSocket `/v1/text-to-speech/{voice_id}/stream-input`).
 *
 * @example
 * ```ts
 * expect(mock.calls('stream' satisfies ElevenLabsEndpointName)).toBe(1);
 * ```
 */
export type ElevenLabsEndpointName = 'stream' | 'stream-input';

/**
 * Options of {@link createElevenLabsMock}. Everything is optional.
 *
 * @example
 * ```ts
 * const options: ElevenLabsMockOptions = { apiKey: 'xi-test', script: { stream: { chunkBytes: 1001 } } };
 * ```
 */
export interface ElevenLabsMockOptions {
  /**
   * When set, every request must present this key: HTTP as the `xi-api-key` header (else 401
   * `{"detail":{"status":"invalid_api_key",...}}`); the WebSocket in the handshake header or the
   * first message (else an `invalid_api_key` error message and a close 1008).
   */
  apiKey?: string;
  /**
   * Latency and faults: one script for both endpoints, or one per endpoint (see MockScript and
   * ElevenLabsSocketScript), each fixed or per call.
   */
  script?: PerCall<ElevenLabsSocketScript> | ElevenLabsScripts;
  /** How text becomes audio (60 ms a character by default). */
  speech?: MockElevenLabsSpeech;
  /**
   * Key of the character durations in alignment objects: `'charDurationsMs'` (the SDK's, the
   * default) or `'charsDurationsMs'` (the 2025 asyncapi's); PROTOCOLS.md 4.3.
   */
  alignmentDurationsKey?: ElevenLabsAlignmentDurationsKey;
  /**
   * WebSocket inactivity window in ms: no client message for this long gets an
   * `input_timeout_exceeded` error and a close 1008. A session's `inactivity_timeout` query
   * parameter (seconds) replaces it. Default: 20,000 (PROTOCOLS.md 4.3).
   */
  inactivityTimeoutMs?: number;
  /** Waits for the script's delays and the inactivity window. Default: real timers. */
  delay?: Delay;
  /** Clock for `receivedAtMs`, in ms. Default: `performance.now()`. */
  now?: () => number;
}

/**
 * The ElevenLabs mock: a MockProvider (HTTP through `handle`, the WebSocket through `upgrade`)
 * with per-endpoint call counts and a record of every WebSocket session.
 *
 * @example
 * ```ts
 * const mock: ElevenLabsMock = createElevenLabsMock();
 * const server = await startMockServer({ provider: mock });
 * ```
 */
export interface ElevenLabsMock extends MockProvider {
  upgrade(request: Request): MockUpgrade;
  /** Every WebSocket session accepted, in order. */
  readonly sockets: ElevenLabsSocketRecord[];
  /** Resolves with `sockets[index]` once that session has been accepted (0-based). */
  whenSocket(index: number): Promise<ElevenLabsSocketRecord>;
  /** Requests (HTTP) or upgrades (WebSocket) received so far on `endpoint`. */
  calls(endpoint: ElevenLabsEndpointName): number;
  /** Forgets the recorded requests and sessions and restarts call numbering at 1. */
  reset(): void;
}

const STREAM = /\/v1\/text-to-speech\/([^/]+)\/stream$/;
const STREAM_INPUT = /\/v1\/text-to-speech\/([^/]+)\/stream-input$/;

function isScripts(spec: unknown): spec is ElevenLabsScripts {
  return (
    typeof spec === 'object' &&
    spec !== null &&
    !Array.isArray(spec) &&
    ('stream' in spec || 'streamInput' in spec)
  );
}

function isProblem(plan: object): plan is { status: number; body: unknown } {
  return 'body' in plan;
}

/**
 * A mock of ElevenLabs' text-to-speech API (PROTOCOLS.md section 4, section 7 item 4), written
 * once over web Request/Response and MockSocket, served by `startMockServer` (HTTP and
 * WebSocket on a real port) and by msw ({@link elevenLabsHandlers}, and `mockWebSocketHandler`
 * for the WebSocket where the runtime has a global WebSocket):
 * - `POST .../v1/text-to-speech/{voice_id}/stream?output_format=pcm_<rate>|ulaw_8000|alaw_8000`:
 *   the mock's audio for `text` in that format (`mockElevenLabsAudio`), streamed in
 *   `chunkBytes` pieces with the script's delays and faults; errors as
 *   `{"detail":{"status","message"}}` (401, scripted failures) or validation
 *   `{"detail":[{"loc","msg","type"}]}` (422: missing `text`, a bad speed, or a compressed or
 *   missing `output_format`, which the mock cannot make);
 * - the `stream-input` WebSocket: see `runStreamInput` (an unknown `output_format` refuses the
 *   upgrade with 422; scripted failures refuse it with `failStatus`).
 * Anything else is a 404. Every request and upgrade is recorded in `requests` (upgrades as
 * `endpoint: 'stream-input'`, method GET, status 101 when accepted; a session's record ends
 * `'completed'` when the mock closed it, `'reset'` when the script dropped it, `'aborted'`
 * when the client closed first), every session in `sockets`.
 *
 * @example
 * ```ts
 * const mock = createElevenLabsMock({ apiKey: 'xi-test', script: { stream: [{ failTimes: 1, failStatus: 429, retryAfter: '2' }] } });
 * const server = await startMockServer({ provider: mock });
 * ```
 */
export function createElevenLabsMock(options: ElevenLabsMockOptions = {}): ElevenLabsMock {
  const delay = options.delay ?? realDelay;
  const now = options.now ?? (() => performance.now());
  const speech = options.speech ?? {};
  const requests: RecordedRequest[] = [];
  const sockets: ElevenLabsSocketRecord[] = [];
  const counts: Record<ElevenLabsEndpointName, number> = { stream: 0, 'stream-input': 0 };
  const socketWaiters: Array<{ index: number; resolve: (record: ElevenLabsSocketRecord) => void }> = [];

  const scriptFor = (endpoint: ElevenLabsEndpointName, context: CallContext): ElevenLabsSocketScript => {
    const spec = options.script;
    if (isScripts(spec)) {
      return (
        (endpoint === 'stream'
          ? resolvePerCall(spec.stream, context)
          : resolvePerCall(spec.streamInput, context)) ?? {}
      );
    }
    return resolvePerCall(spec, context) ?? {};
  };

  const recordOf = (request: Request, endpoint: ElevenLabsEndpointName | undefined) => {
    const url = new URL(request.url);
    const call = endpoint === undefined ? 1 : ++counts[endpoint];
    const made = createRecord({
      endpoint: endpoint ?? 'unknown',
      call,
      method: request.method,
      path: url.pathname,
      url: request.url,
      headers: headerRecord(request.headers),
      receivedAtMs: now(),
    });
    requests.push(made.record);
    return { ...made, url, call };
  };

  async function handle(request: Request): Promise<Response> {
    const pathname = new URL(request.url).pathname;
    const match = STREAM.exec(pathname);
    const { record, finish, url, call } = recordOf(request, match ? 'stream' : undefined);
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}): Response => {
      record.status = status;
      finish('completed');
      return completeResponse(status, body, headers);
    };
    try {
      await readRequestBody(request, record);
      if (options.apiKey !== undefined && record.headers['xi-api-key'] !== options.apiKey) {
        return answer(401, elevenLabsErrorBody(401, 'Invalid API key'));
      }
      if (!match)
        return answer(
          404,
          elevenLabsErrorBody(404, `No mock endpoint at ${request.method} ${pathname}`, 'not_found'),
        );
      if (request.method !== 'POST') {
        return answer(
          405,
          elevenLabsErrorBody(405, `Method ${request.method} not allowed`, 'method_not_allowed'),
        );
      }
      const script: MockScript = scriptFor('stream', { call, request: record });
      if (script.headersDelayMs !== undefined && script.headersDelayMs > 0) {
        await delay(script.headersDelayMs, request.signal);
      }
      if (request.signal.aborted) {
        finish('aborted');
        return Response.error();
      }
      if (script.failTimes !== undefined && call <= script.failTimes) {
        const status = script.failStatus ?? 500;
        return answer(
          status,
          script.failBody ?? elevenLabsErrorBody(status, `mock failure ${call} of ${script.failTimes}`),
          script.retryAfter === undefined ? {} : { 'retry-after': script.retryAfter },
        );
      }
      if (script.resetAfterChunks === 0) {
        finish('reset');
        return Response.error();
      }
      const plan = streamPlan(
        url.searchParams.get('output_format'),
        record.body,
        speech,
        script.chunkBytes ?? DEFAULT_CHUNK_BYTES,
      );
      if (isProblem(plan)) return answer(plan.status, plan.body);
      return scriptedResponse(plan, { script, delay, signal: request.signal, record, finish });
    } catch (error) {
      if (request.signal.aborted) {
        finish('aborted');
        return Response.error();
      }
      const message = `voxroute mock failed: ${error instanceof Error ? error.message : String(error)}`;
      return answer(500, elevenLabsErrorBody(500, message));
    }
  }

  function upgrade(request: Request): MockUpgrade {
    const pathname = new URL(request.url).pathname;
    const match = STREAM_INPUT.exec(pathname);
    const { record, finish, url, call } = recordOf(request, match ? 'stream-input' : undefined);
    const refuse = (status: number, body: unknown): MockUpgrade => {
      record.status = status;
      finish('completed');
      return { reject: { status, body: typeof body === 'string' ? body : JSON.stringify(body) } };
    };
    if (!match) return refuse(404, elevenLabsErrorBody(404, `No mock WebSocket at ${pathname}`, 'not_found'));
    const script = scriptFor('stream-input', { call, request: record });
    if (script.failTimes !== undefined && call <= script.failTimes) {
      const status = script.failStatus ?? 500;
      return refuse(
        status,
        script.failBody ?? elevenLabsErrorBody(status, `mock failure ${call} of ${script.failTimes}`),
      );
    }
    const outputFormat = url.searchParams.get('output_format');
    const format = outputFormat === null ? undefined : mockOutputFormat(outputFormat);
    if (!format) return refuse(422, outputFormatProblem(outputFormat).body);
    const query = Object.fromEntries(url.searchParams);
    const seconds = Number(query.inactivity_timeout);
    const inactivityMs =
      query.inactivity_timeout !== undefined && Number.isFinite(seconds) && seconds > 0
        ? seconds * 1000
        : (options.inactivityTimeoutMs ?? 20_000);
    record.status = 101;
    return {
      accept: (socket) => {
        const made = createSocketRecord({
          call,
          url: request.url,
          voiceId: decodeURIComponent(match[1]!),
          query,
          headers: record.headers,
        });
        sockets.push(made.record);
        for (let i = socketWaiters.length - 1; i >= 0; i--) {
          const waiter = socketWaiters[i]!;
          if (sockets[waiter.index]) {
            socketWaiters.splice(i, 1);
            waiter.resolve(sockets[waiter.index]!);
          }
        }
        runStreamInput({
          socket,
          record: made.record,
          received: made.received,
          onChunkSent: () => {
            record.chunksSent++;
          },
          closed: (code, reason, byServer) => {
            made.close(code, reason);
            finish(!byServer ? 'aborted' : code === 1006 ? 'reset' : 'completed');
          },
          format,
          script,
          apiKey: options.apiKey,
          headerKey: record.headers['xi-api-key'],
          speech,
          durationsKey: options.alignmentDurationsKey ?? 'charDurationsMs',
          inactivityMs,
          delay,
        });
      },
    };
  }

  return {
    requests,
    sockets,
    handle,
    upgrade,
    whenSocket(index) {
      const found = sockets[index];
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => socketWaiters.push({ index, resolve }));
    },
    calls: (endpoint) => counts[endpoint],
    reset() {
      requests.length = 0;
      sockets.length = 0;
      counts.stream = 0;
      counts['stream-input'] = 0;
    },
  };
}
