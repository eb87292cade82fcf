import type { Delay } from '../delay.js';
import { checkFactoryOptions } from '../mock-options.js';
import type { MockProvider } from '../mock-provider.js';
import type { MockScript } from '../mock-script.js';
import type { PerCall } from '../per-call.js';
import { resolvePerCall, resolveScript } from '../per-call.js';
import { checkChatReplies } from '../reply-checks.js';
import { type Arrival, type HttpHandling, scriptedEndpoint } from '../scripted-endpoint.js';
import { ANTHROPIC_STOP_REASONS, type AnthropicReply, messagesPlan } from './messages.js';
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
  apiKey?: string | undefined;
  /**
   * Where the key is accepted: `'either'` (the default) takes `x-api-key: <key>` (the API's
   * documented header) or `Authorization: Bearer <key>` (what the official
   * `@anthropic-ai/sdk` v1 sends for an `apiKey`, and what gateways take); `'x-api-key'` and
   * `'bearer'` take only that one.
   */
  authHeader?: 'either' | 'x-api-key' | 'bearer' | undefined;
  /** Latency and faults of `POST /v1/messages` (see MockScript), per call if wanted. */
  script?: PerCall<MockScript> | undefined;
  /** The model's reply. Default: `'This is a mock reply.'` (five text deltas). */
  reply?: PerCall<AnthropicReply> | undefined;
  /** Waits for the script's delays. Default: real timers ({@link realDelay}). */
  delay?: Delay | undefined;
  /** Clock for `receivedAtMs`, in ms. Default: `performance.now()`. */
  now?: (() => number) | undefined;
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
 * A mock of Anthropic's Messages API (Anthropic's API reference), written over web `Request`/`Response`,
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
 * Throws a TypeError naming this function and the field (e.g. `createAnthropicMock:
 * options.reply.toolUses.0.input: expected ...`) when an option is unknown or of the wrong
 * type, or a `reply` value given as such (not a function) has the wrong shape.
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
  checkFactoryOptions('createAnthropicMock', 'anthropic', options, () =>
    checkChatReplies(options.reply, 'reply', {
      tools: 'toolUses',
      args: 'input',
      end: { field: 'stopReason', values: ANTHROPIC_STOP_REASONS },
    }),
  );
  const endpoints = scriptedEndpoint<'messages'>({
    endpoints: ['messages'],
    delay: options.delay,
    now: options.now,
    numberUnknown: true,
  });
  const requestId = ({ call }: Arrival<'messages'>) => `req_mock_${call}`;
  const handling: HttpHandling<'messages', MockScript> = {
    error: (status, message, arrival) => anthropicErrorBody(status, message, requestId(arrival)),
    errorHeaders: (arrival) => ({ 'request-id': requestId(arrival) }),
    auth: ({ headers }) =>
      options.apiKey === undefined
        ? undefined
        : authProblem(headers, options.apiKey, options.authHeader ?? 'either'),
    check({ headers }) {
      const version = headers['anthropic-version'];
      if (version === undefined) return { status: 400, message: 'anthropic-version: header is required' };
      if (!VERSION.test(version))
        return { status: 400, message: `anthropic-version: invalid version '${version}'` };
      return undefined;
    },
    script: ({ context }) => resolveScript(options.script, context),
    plan: ({ call, record, context }, script) =>
      messagesPlan(record.body, {
        call,
        reply: resolvePerCall(options.reply, context),
        errorEvent: script.errorEvent,
      }),
  };

  return {
    requests: endpoints.requests,
    handle(request) {
      const { pathname } = new URL(request.url);
      const isMessages = pathname.replace(/\/+$/, '').endsWith('/v1/messages');
      return endpoints.serve(request, isMessages ? 'messages' : undefined, handling);
    },
    calls: () => endpoints.calls('messages'),
    reset: () => endpoints.reset(),
  };
}
