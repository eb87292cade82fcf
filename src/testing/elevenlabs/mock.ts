import type { Delay } from '../delay.js';
import { checkFactoryOptions } from '../mock-options.js';
import type { MockProvider } from '../mock-provider.js';
import type { MockScript } from '../mock-script.js';
import { DEFAULT_CHUNK_BYTES } from '../mock-script.js';
import type { MockUpgrade } from '../mock-websocket.js';
import type { PerCall } from '../per-call.js';
import { resolveScript } from '../per-call.js';
import {
  type EndpointHandling,
  type HttpHandling,
  isPerEndpoint,
  scriptedEndpoint,
} from '../scripted-endpoint.js';
import type { MockElevenLabsSpeech } from './audio.js';
import { elevenLabsErrorBody } from './errors.js';
import { mockOutputFormat, outputFormatProblem, streamPlan } from './http.js';
import { createSocketRecord, type ElevenLabsSocketRecord } from './recorded-socket.js';
import type { ElevenLabsScripts, ElevenLabsSocketScript } from './script.js';
import { type ElevenLabsAlignmentDurationsKey, runStreamInput } from './stream-input.js';
import { convertWithTimestampsPlan, withTimestampsPlan } from './with-timestamps.js';

/**
 * The endpoints of the ElevenLabs mock: `'convert'` (`POST /v1/text-to-speech/{voice_id}`),
 * `'convert-with-timestamps'` (`POST .../{voice_id}/with-timestamps`), `'stream'`
 * (`POST /v1/text-to-speech/{voice_id}/stream`), `'stream-with-timestamps'`
 * (`POST .../stream/with-timestamps`) and `'stream-input'` (the WebSocket
 * `/v1/text-to-speech/{voice_id}/stream-input`).
 *
 * @example
 * ```ts
 * expect(mock.calls('stream' satisfies ElevenLabsEndpointName)).toBe(1);
 * ```
 */
export type ElevenLabsEndpointName =
  | 'convert'
  | 'convert-with-timestamps'
  | 'stream'
  | 'stream-with-timestamps'
  | 'stream-input';

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
   * `{"detail":{"status":"invalid_api_key",...}}`); the WebSocket in the `xi-api-key` handshake
   * header, the `authorization` query parameter (`Bearer <key>` or the bare key; ElevenLabs'
   * stream-input reference lists it for clients that cannot set headers), or the first message
   * (`xi-api-key` or `authorization`), else an `invalid_api_key` error message and a close 1008.
   * An `xi-api-key` query parameter is not a documented way and does not count.
   */
  apiKey?: string | undefined;
  /**
   * Latency and faults: one script for both endpoints, or one per endpoint (see MockScript and
   * ElevenLabsSocketScript), each fixed or per call.
   */
  script?: PerCall<ElevenLabsSocketScript> | ElevenLabsScripts | undefined;
  /** How text becomes audio (60 ms a character by default). */
  speech?: MockElevenLabsSpeech | undefined;
  /**
   * Key of the character durations in alignment objects: `'charDurationsMs'` (the SDK's, the
   * default) or `'charsDurationsMs'` (the 2025 AsyncAPI spec of ElevenLabs' docs).
   */
  alignmentDurationsKey?: ElevenLabsAlignmentDurationsKey | undefined;
  /**
   * WebSocket inactivity window in ms: no client message for this long gets an
   * `input_timeout_exceeded` error and a close 1008. A session's `inactivity_timeout` query
   * parameter (seconds) replaces it. Default: 20,000 (ElevenLabs' stream-input reference).
   */
  inactivityTimeoutMs?: number | undefined;
  /** Waits for the script's delays and the inactivity window. Default: real timers. */
  delay?: Delay | undefined;
  /** Clock for `receivedAtMs`, in ms. Default: `performance.now()`. */
  now?: (() => number) | undefined;
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

const CONVERT = /\/v1\/text-to-speech\/([^/]+)$/;
const CONVERT_WITH_TIMESTAMPS = /\/v1\/text-to-speech\/([^/]+)\/with-timestamps$/;
const STREAM = /\/v1\/text-to-speech\/([^/]+)\/stream$/;
const STREAM_WITH_TIMESTAMPS = /\/v1\/text-to-speech\/([^/]+)\/stream\/with-timestamps$/;
const STREAM_INPUT = /\/v1\/text-to-speech\/([^/]+)\/stream-input$/;

/**
 * A mock of ElevenLabs' text-to-speech API (ElevenLabs' API reference and elevenlabs-js), written
 * once over web Request/Response and MockSocket, served by `startMockServer` (HTTP and
 * WebSocket on a real port) and by msw ({@link elevenLabsHandlers}, and `mockWebSocketHandler`
 * for the WebSocket where the runtime has a global WebSocket):
 * - `POST .../v1/text-to-speech/{voice_id}` (the SDK's `convert`, not streaming at ElevenLabs)
 *   and `POST .../v1/text-to-speech/{voice_id}/stream`, with `?output_format=pcm_<rate>|ulaw_8000|alaw_8000`:
 *   the mock's audio for `text` in that format (`mockElevenLabsAudio`), streamed in
 *   `chunkBytes` pieces with the script's delays and faults; errors as
 *   `{"detail":{"status","message"}}` (401, scripted failures) or validation
 *   `{"detail":[{"loc","msg","type"}]}` (422: missing `text`, a bad speed, or a compressed or
 *   missing `output_format`, which the mock cannot make);
 * - `POST .../stream/with-timestamps` (the SDK's `streamWithTimestamps`): the same audio and
 *   checks, as newline-delimited JSON `{audio_base64, alignment, normalized_alignment}` (see
 *   `withTimestampsPlan`);
 * - `POST .../{voice_id}/with-timestamps` (the SDK's `convertWithTimestamps`): the same, as one
 *   JSON object for the whole audio (see `convertWithTimestampsPlan`);
 * - the `stream-input` WebSocket: see `runStreamInput` (an unknown `output_format` refuses the
 *   upgrade with 422; scripted failures refuse it with `failStatus`).
 * Anything else is a 404. Every request and upgrade is recorded in `requests` (upgrades as
 * `endpoint: 'stream-input'`, method GET, status 101 when accepted; a session's record ends
 * `'completed'` when the mock closed it, `'reset'` when the script dropped it, `'aborted'`
 * when the client closed first), every session in `sockets`.
 *
 * Throws a TypeError naming this function and the field (e.g.
 * `createElevenLabsMock: options.script.failTimes: expected a number, got a string`) when an option is
 * unknown or of the wrong type.
 *
 * @example
 * ```ts
 * const mock = createElevenLabsMock({ apiKey: 'xi-test', script: { stream: [{ failTimes: 1, failStatus: 429, retryAfter: '2' }] } });
 * const server = await startMockServer({ provider: mock });
 * ```
 */
export function createElevenLabsMock(options: ElevenLabsMockOptions = {}): ElevenLabsMock {
  checkFactoryOptions('createElevenLabsMock', 'elevenlabs', options);
  const speech = options.speech ?? {};
  const endpoints = scriptedEndpoint<ElevenLabsEndpointName>({
    endpoints: ['convert', 'convert-with-timestamps', 'stream', 'stream-with-timestamps', 'stream-input'],
    delay: options.delay,
    now: options.now,
  });
  const { delay } = endpoints;
  const sockets: ElevenLabsSocketRecord[] = [];
  const socketWaiters: Array<{ index: number; resolve: (record: ElevenLabsSocketRecord) => void }> = [];

  const common: EndpointHandling<ElevenLabsEndpointName, ElevenLabsSocketScript> = {
    error: (status, message, _arrival, cause) =>
      elevenLabsErrorBody(
        status,
        message,
        cause === 'path' ? 'not_found' : cause === 'method' ? 'method_not_allowed' : undefined,
      ),
    script({ endpoint, context }) {
      const spec = options.script;
      if (isPerEndpoint<ElevenLabsScripts>(spec, ['stream', 'streamInput'])) {
        return endpoint === 'stream-input'
          ? resolveScript(spec.streamInput, context)
          : resolveScript(spec.stream, context);
      }
      return resolveScript(spec, context);
    },
  };
  const http: HttpHandling<ElevenLabsEndpointName, MockScript> = {
    ...common,
    auth: ({ headers }) =>
      options.apiKey !== undefined && headers['xi-api-key'] !== options.apiKey
        ? 'Invalid API key'
        : undefined,
    plan: ({ url, record, endpoint }, script) =>
      endpoint === 'convert-with-timestamps'
        ? convertWithTimestampsPlan(url.searchParams.get('output_format'), record.body, speech)
        : (endpoint === 'stream-with-timestamps' ? withTimestampsPlan : streamPlan)(
            url.searchParams.get('output_format'),
            record.body,
            speech,
            script.chunkBytes ?? DEFAULT_CHUNK_BYTES,
          ),
  };

  function upgrade(request: Request): MockUpgrade {
    const match = STREAM_INPUT.exec(new URL(request.url).pathname);
    const admitted = endpoints.admitUpgrade(request, match ? 'stream-input' : undefined, common);
    if (admitted.refused) return admitted.refused;
    const { arrival, script } = admitted;
    const { record, finish, url, call } = arrival;
    const outputFormat = url.searchParams.get('output_format');
    const format = outputFormat === null ? undefined : mockOutputFormat(outputFormat);
    if (!format) return endpoints.refuse(arrival, 422, outputFormatProblem(outputFormat).body);
    const query = Object.fromEntries(url.searchParams);
    const seconds = Number(query.inactivity_timeout);
    const inactivityMs =
      query.inactivity_timeout !== undefined && Number.isFinite(seconds) && seconds > 0
        ? seconds * 1000
        : (options.inactivityTimeoutMs ?? 20_000);
    const headerKey = record.headers['xi-api-key'];
    const queryKey = url.searchParams.get('authorization')?.replace(/^Bearer\s+/i, '');
    const handshakeKey =
      headerKey !== undefined
        ? { key: headerKey, via: 'header' as const }
        : queryKey !== undefined
          ? { key: queryKey, via: 'query' as const }
          : undefined;
    record.status = 101;
    return {
      accept: (socket) => {
        const made = createSocketRecord({
          call,
          url: request.url,
          voiceId: decodeURIComponent(match![1]!),
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
          handshakeKey,
          speech,
          durationsKey: options.alignmentDurationsKey ?? 'charDurationsMs',
          inactivityMs,
          delay,
        });
      },
    };
  }

  return {
    requests: endpoints.requests,
    sockets,
    handle(request) {
      const path = new URL(request.url).pathname;
      const endpoint = STREAM.test(path)
        ? 'stream'
        : STREAM_WITH_TIMESTAMPS.test(path)
          ? 'stream-with-timestamps'
          : CONVERT_WITH_TIMESTAMPS.test(path)
            ? 'convert-with-timestamps'
            : CONVERT.test(path)
              ? 'convert'
              : undefined;
      return endpoints.serve(request, endpoint, http);
    },
    upgrade,
    whenSocket(index) {
      const found = sockets[index];
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => socketWaiters.push({ index, resolve }));
    },
    calls: (endpoint) => endpoints.calls(endpoint),
    reset() {
      endpoints.reset();
      sockets.length = 0;
    },
  };
}
