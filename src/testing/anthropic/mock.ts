import type { Delay } from '../delay.js';
import { realDelay } from '../delay.js';
import type { MockProvider } from '../mock-provider.js';
import type { MockScript } from '../mock-script.js';
import type { CallContext, PerCall } from '../per-call.js';
import { resolvePerCall } from '../per-call.js';
import type { RecordedRequest } from '../recorded-request.js';
import { createRecord } from '../recorded-request.js';
import { completeResponse, headerRecord, readRequestBody } from '../request-body.js';
import { scriptedResponse } from '../scripted-body.js';
import { type AnthropicReply, messagesPlan } from './messages.js';
import { anthropicErrorBody } from './wire.js';

/**
 * Options of {@link createAnthropicMock}. Everything is optional.
 *
 * @example
 * ```ts
 * const options: AnthropicMockOptions = { apiKey: 'test-key', reply: 'Booked.', script: [{ failTimes: 1, failStatus: 529 }] };
 * ```
 */
export interface AnthropicMockOptions {
  /**
   * When set, every request needs this key, or gets a 401 `authentication_error`. Where it is
   * looked for depends on `authHeader`.
   */
  apiKey?: string;
  /**
   * Where the key is accepted: `'either'` (the default) takes `x-api-key: <key>` (the API's
   * documented header, PROTOCOLS.md 6b) or `Authorization: Bearer <key>` (what the official
   * `@anthropic-ai/sdk` v1 sends for an `apiKey`, and what gateways take); `'x-api-key'` and
   * `'bearer'` take only that one.
   */
  authHeader?: 'either' | 'x-api-key' | 'bearer';
  /** Latency and faults of `POST /v1/messages` (see MockScript), per call if wanted. */
  script?: PerCall<MockScript>;
  /** The model's reply. Default: `'This is a mock reply.'` (five text deltas). */
  reply?: PerCall<AnthropicReply>;
  /** Waits for the script's delays. Default: real timers ({@link realDelay}). */
  delay?: Delay;
  /** Clock for `receivedAtMs`, in ms. Default: `performance.now()`. */
  now?: () => number;
}

/**
 * The Anthropic Messages API mock: a {@link MockProvider} with a call count.
 *
 * @example
 * ```ts
 * const mock: AnthropicMock = createAnthropicMock({ apiKey: 'test-key' });
 * const server = await startMockServer({ provider: mock });
 * ```
 */
export interface AnthropicMock extends MockProvider {
  /** Requests received so far on `POST /v1/messages`. */
  calls(): number;
  /** Forgets the recorded requests and restarts call numbering at 1. */
  reset(): void;
}

const VERSION = /^\d{4}-\d{2}-\d{2}$/;

/** Why the request's credentials are refused (the 401 message), or undefined when they are fine. */
function authProblem(
  headers: Record<string, string>,
  apiKey: string,
  accept: 'either' | 'x-api-key' | 'bearer',
): string | undefined {
  const key = accept === 'bearer' ? undefined : headers['x-api-key'];
  const bearer = accept === 'x-api-key' ? undefined : headers.authorization;
  if (key === undefined && bearer === undefined) {
    return accept === 'bearer' ? 'Authorization header is required' : 'x-api-key header is required';
  }
  if (key !== undefined) return key === apiKey ? undefined : 'invalid x-api-key';
  return bearer === `Bearer ${apiKey}` ? undefined : 'invalid bearer token';
}

/**
 * A mock of Anthropic's Messages API (PROTOCOLS.md 6b), written over web `Request`/`Response`,
 * to serve through msw ({@link anthropicHandlers}) or on a real port (`startMockServer`; point
 * the official client at it with `new Anthropic({ baseURL: server.url, apiKey })`).
 *
 * `POST .../v1/messages` (under any base path): checks, in order, the key (401
 * `authentication_error`; see `authHeader`), the `anthropic-version` header (any `YYYY-MM-DD` date; 400 when
 * missing), the script's `failTimes` (its `failStatus`, default 500, with Anthropic's error body
 * and `retry-after` when `retryAfter` is set), the body (400 `invalid_request_error`, see
 * `validateMessagesRequest`); then streams the reply as the API does (see `messagesPlan`) with
 * the script's delays and faults: reset, stall, malformed frame, `event: error` mid-stream
 * (`errorEventAfterChunks`; `errorEvent.type` default `overloaded_error`) and an end without
 * `message_delta`/`message_stop` (`endWithoutDone`). A chunk is one SSE event. Any other path is a
 * 404 `not_found_error`, another method a 405. Every request is recorded in `requests` with
 * endpoint `'messages'`.
 *
 * @example
 * ```ts
 * const mock = createAnthropicMock({
 *   apiKey: 'test-key',
 *   reply: { toolUses: [{ name: 'book', input: { table: 4 } }] },
 *   script: [{ failTimes: 1, failStatus: 529, retryAfter: '1' }],
 * });
 * ```
 */
export function createAnthropicMock(options: AnthropicMockOptions = {}): AnthropicMock {
  const delay = options.delay ?? realDelay;
  const now = options.now ?? (() => performance.now());
  const requests: RecordedRequest[] = [];
  let count = 0;
  let unmatched = 0;

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const isMessages = url.pathname.replace(/\/+$/, '').endsWith('/v1/messages');
    const call = isMessages ? ++count : ++unmatched;
    const headers = headerRecord(request.headers);
    const { record, finish } = createRecord({
      endpoint: isMessages ? 'messages' : 'unknown',
      call,
      method: request.method,
      path: url.pathname,
      url: request.url,
      headers,
      receivedAtMs: now(),
    });
    requests.push(record);
    const requestId = `req_mock_${call}`;
    const sendError = (status: number, body: unknown, extra: Record<string, string> = {}): Response => {
      record.status = status;
      finish('completed');
      return completeResponse(status, body, { 'request-id': requestId, ...extra });
    };
    const problem = (status: number, message: string) =>
      sendError(status, anthropicErrorBody(status, message, requestId));

    try {
      await readRequestBody(request, record);
      if (options.apiKey !== undefined) {
        const problemText = authProblem(headers, options.apiKey, options.authHeader ?? 'either');
        if (problemText !== undefined) return problem(401, problemText);
      }
      if (!isMessages) return problem(404, `No mock endpoint at ${request.method} ${url.pathname}`);
      if (request.method !== 'POST') return problem(405, `Method ${request.method} not allowed`);
      const version = headers['anthropic-version'];
      if (version === undefined) return problem(400, 'anthropic-version: header is required');
      if (!VERSION.test(version)) return problem(400, `anthropic-version: invalid version '${version}'`);

      const context: CallContext = { call, request: record };
      const script = resolvePerCall(options.script, context) ?? {};
      if (script.headersDelayMs !== undefined && script.headersDelayMs > 0) {
        await delay(script.headersDelayMs, request.signal);
      }
      if (request.signal.aborted) {
        finish('aborted');
        return Response.error();
      }
      if (script.failTimes !== undefined && call <= script.failTimes) {
        const status = script.failStatus ?? 500;
        return sendError(
          status,
          script.failBody ??
            anthropicErrorBody(status, `mock failure ${call} of ${script.failTimes}`, requestId),
          script.retryAfter === undefined ? {} : { 'retry-after': script.retryAfter },
        );
      }
      if (script.resetAfterChunks === 0) {
        finish('reset');
        return Response.error();
      }
      const plan = messagesPlan(record.body, {
        call,
        reply: resolvePerCall(options.reply, context),
        errorEvent: script.errorEvent,
      });
      if ('message' in plan) return problem(plan.status, plan.message);
      return scriptedResponse(plan, { script, delay, signal: request.signal, record, finish });
    } catch (error) {
      if (request.signal.aborted) {
        finish('aborted');
        return Response.error();
      }
      return problem(500, `voxroute mock failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  return {
    requests,
    handle,
    calls: () => count,
    reset() {
      requests.length = 0;
      count = 0;
      unmatched = 0;
    },
  };
}
