import type { Delay } from '../delay.js';
import { checkFactoryOptions } from '../mock-options.js';
import type { MockProvider } from '../mock-provider.js';
import { DEFAULT_CHUNK_BYTES } from '../mock-script.js';
import type { MockSocket, MockUpgrade } from '../mock-websocket.js';
import { DEFAULT_TRANSCRIPT } from '../openai/transcription.js';
import type { CallContext, PerCall } from '../per-call.js';
import { resolvePerCall, resolveScript } from '../per-call.js';
import {
  type Arrival,
  type EndpointHandling,
  type HttpHandling,
  isPerEndpoint,
  scriptedEndpoint,
} from '../scripted-endpoint.js';
import type { CartesiaMockSpeech } from './audio.js';
import { httpErrorBody } from './errors.js';
import type { CartesiaEndpointName, CartesiaEndpointScripts, CartesiaMockScript } from './script.js';
import type { CartesiaSocketRecord } from './socket-record.js';
import { sttBatchPlan } from './stt-batch.js';
import { runSttSession, STT_BYTES_PER_SAMPLE } from './stt-session.js';
import { bytesPlan, ssePlan } from './tts-http.js';
import { runTtsSession } from './tts-session.js';

const HTTP_PATHS: ReadonlyArray<readonly [string, CartesiaEndpointName]> = [
  ['/tts/bytes', 'bytes'],
  ['/tts/sse', 'sse'],
  ['/stt', 'stt'],
];
const SOCKET_PATHS: ReadonlyArray<readonly [string, CartesiaEndpointName]> = [
  ['/tts/websocket', 'tts-websocket'],
  ['/stt/websocket', 'stt-websocket'],
];
const ENDPOINTS: readonly CartesiaEndpointName[] = ['bytes', 'sse', 'stt', 'tts-websocket', 'stt-websocket'];

/**
 * What a transcript function receives: the call (connection) number and its record, the
 * audio of the segment being finalized (bytes in the query's encoding), and the segment's
 * 1-based number on the connection.
 *
 * @example
 * ```ts
 * const transcript = ({ segment }: CartesiaTranscriptContext) => (segment === 1 ? 'Hello there.' : 'Bye.');
 * ```
 */
export interface CartesiaTranscriptContext extends CallContext {
  /** The audio of the segment being finalized: bytes in the query's encoding and sample rate. */
  audio: Uint8Array;
  /** 1-based number of the segment on the connection (one per `finalize`). */
  segment: number;
}

/**
 * Options of {@link createCartesiaMock}. Everything is optional.
 *
 * @example
 * ```ts
 * const options: CartesiaMockOptions = { apiKey: 'test-key', transcript: 'Book a table for two.' };
 * ```
 */
export interface CartesiaMockOptions {
  /**
   * When set, every request needs this key: `X-API-Key: <key>` or `Authorization: Bearer <key>`
   * (Cartesia accepts both), or on a WebSocket the query `api_key` / `access_token`.
   * Else HTTP 401 (an upgrade is refused with 401).
   */
  apiKey?: string | undefined;
  /** Latency and faults: one script for every endpoint, or one per endpoint (see CartesiaMockScript). */
  script?: PerCall<CartesiaMockScript> | CartesiaEndpointScripts | undefined;
  /** How TTS audio is made (60 ms a character by default; see `mockCartesiaAudio`). */
  speech?: CartesiaMockSpeech | undefined;
  /**
   * The STT transcript of each finalized segment (on `POST /stt`, of the uploaded file, as
   * segment 1). Default: `'This is a mock transcript.'`
   */
  transcript?: PerCall<string, CartesiaTranscriptContext> | undefined;
  /** Waits for the script's delays. Default: real timers ({@link realDelay}). */
  delay?: Delay | undefined;
  /** Clock for `receivedAtMs`, in ms. Default: `performance.now()`. */
  now?: (() => number) | undefined;
}

/**
 * The Cartesia mock: a {@link MockProvider} that speaks HTTP (`handle`) and WebSocket
 * (`upgrade`), with per-endpoint call counts and the records of its WebSocket connections.
 *
 * @example
 * ```ts
 * const mock: CartesiaMock = createCartesiaMock();
 * const server = await startMockServer({ provider: mock });
 * ```
 */
export interface CartesiaMock extends MockProvider {
  upgrade(request: Request): MockUpgrade;
  /** The WebSocket connections, in arrival order (also in `requests`). */
  readonly sockets: CartesiaSocketRecord[];
  /** Requests (HTTP) or connections (WebSocket) received so far on `endpoint`. */
  calls(endpoint: CartesiaEndpointName): number;
  /**
   * Closes every open WebSocket session from the server side with `code` (default 1001, going
   * away) and `reason` (default `''`), e.g. to play a server that drops idle sockets.
   */
  closeSockets(code?: number, reason?: string): void;
  /** Forgets the records and restarts call numbering at 1. */
  reset(): void;
}

/**
 * A wire-accurate mock of Cartesia's API (Cartesia's API reference and cartesia-js), written once over web
 * `Request`/`Response` and MockSocket, to serve with msw ({@link cartesiaHandlers}) or on a real
 * port (`startMockServer`, which serves `upgrade` with the `ws` package). Endpoints, matched by
 * the end of the path under any base URL:
 * - `POST .../tts/bytes`: raw or WAV audio body (see `bytesPlan`);
 * - `POST .../tts/sse`: data-only SSE `chunk` / `timestamps` / `done` frames (see `ssePlan`);
 * - `POST .../stt` (batch, multipart): `{"type":"transcript","text","duration","language",
 *   "request_id"}`, with `words` when asked (see `sttBatchPlan`);
 * - `GET .../tts/websocket` (upgrade): contexts, streamed transcripts, flush, cancel, word
 *   timestamps (see `runTtsSession`);
 * - `GET .../stt/websocket?model=&encoding=&sample_rate=` (upgrade): binary audio, `finalize`,
 *   `close` / `done`, partial and final transcripts with word times (see `runSttSession`); a
 *   missing `model`, an unknown `encoding` or a bad `sample_rate` refuses the upgrade with 400.
 * Any `Cartesia-Version` is accepted; HTTP error bodies follow it (JSON from `2026-03-01`, plain
 * `Title: Message` before). Anything else is a 404. Every request and connection is recorded.
 *
 * Throws a TypeError naming this function and the field (e.g.
 * `createCartesiaMock: options.script.failTimes: expected a number, got a string`) when an option is
 * unknown or of the wrong type.
 *
 * @example
 * ```ts
 * const mock = createCartesiaMock({
 *   apiKey: 'test-key',
 *   script: { bytes: [{ failTimes: 1, failStatus: 503 }], 'tts-websocket': { stallAfterChunks: 3 } },
 * });
 * const server = await startMockServer({ provider: mock });
 * ```
 */
export function createCartesiaMock(options: CartesiaMockOptions = {}): CartesiaMock {
  checkFactoryOptions('createCartesiaMock', 'cartesia', options);
  const speech = options.speech ?? {};
  const endpoints = scriptedEndpoint<CartesiaEndpointName>({
    endpoints: ENDPOINTS,
    delay: options.delay,
    now: options.now,
  });
  const { delay } = endpoints;
  const sockets: CartesiaSocketRecord[] = [];
  const open = new Set<MockSocket>();
  /** Keeps `socket` in `open` while it is open, then runs the session. */
  const track =
    (run: (socket: MockSocket) => void) =>
    (socket: MockSocket): void => {
      open.add(socket);
      socket.onClose(() => open.delete(socket));
      run(socket);
    };

  const script = ({
    endpoint,
    context,
  }: Arrival<CartesiaEndpointName> & { endpoint: CartesiaEndpointName }) => {
    const spec = options.script;
    if (isPerEndpoint<CartesiaEndpointScripts>(spec, ENDPOINTS))
      return resolveScript(spec[endpoint], context);
    return resolveScript(spec, context);
  };

  /** Undefined when the key is right (or none is wanted), else the 401 message. */
  const auth = ({ headers, url }: Arrival<CartesiaEndpointName>): string | undefined => {
    if (options.apiKey === undefined) return undefined;
    const given = [
      headers['x-api-key'],
      headers.authorization?.replace(/^Bearer\s+/i, ''),
      url.searchParams.get('api_key') ?? undefined,
      url.searchParams.get('access_token') ?? undefined,
    ].filter((value): value is string => value !== undefined && value !== '');
    if (given.length === 0) return 'No API key provided';
    return given.includes(options.apiKey) ? undefined : 'Invalid API key';
  };

  const http: HttpHandling<CartesiaEndpointName, CartesiaMockScript> = {
    error: (status, message, { headers }) => httpErrorBody(status, message, headers['cartesia-version']),
    auth,
    script,
    plan({ endpoint, record, url, context }, script) {
      if (endpoint === 'stt') {
        return sttBatchPlan(record.form, url.searchParams, {
          transcript: (audio) =>
            resolvePerCall(options.transcript, { ...context, audio, segment: 1 }) ?? DEFAULT_TRANSCRIPT,
        });
      }
      const input = {
        chunkBytes: Math.max(1, script.chunkBytes ?? DEFAULT_CHUNK_BYTES),
        speech,
        errorEvent: script.errorEvent,
      };
      return endpoint === 'bytes' ? bytesPlan(record.body, input) : ssePlan(record.body, input);
    },
  };
  const versionOf = ({ headers, url }: Arrival<CartesiaEndpointName>) =>
    headers['cartesia-version'] ?? url.searchParams.get('cartesia_version') ?? undefined;
  const socket: EndpointHandling<CartesiaEndpointName, CartesiaMockScript> = {
    error: (status, message, arrival) => httpErrorBody(status, message, versionOf(arrival)),
    auth,
    script,
  };

  function upgrade(request: Request): MockUpgrade {
    const { pathname } = new URL(request.url);
    const endpoint = SOCKET_PATHS.find(([suffix]) => pathname.endsWith(suffix))?.[1];
    const admitted = endpoints.admitUpgrade(request, endpoint, socket);
    const record: CartesiaSocketRecord = Object.assign(admitted.arrival.record, { frames: [], messages: [] });
    sockets.push(record);
    if (admitted.refused) return admitted.refused;
    const { arrival, script } = admitted;
    const { finish, url, context } = arrival;
    const refuse = (message: string) =>
      endpoints.refuse(arrival, 400, httpErrorBody(400, message, versionOf(arrival)));
    if (arrival.endpoint === 'tts-websocket') {
      record.status = 101;
      return { accept: track((socket) => runTtsSession(socket, { script, delay, speech, record, finish })) };
    }
    const encoding = url.searchParams.get('encoding') ?? '';
    const sampleRate = Number(url.searchParams.get('sample_rate'));
    if (!url.searchParams.get('model')) return refuse('model is required');
    if (!(encoding in STT_BYTES_PER_SAMPLE))
      return refuse(`encoding ${JSON.stringify(encoding)} is not supported`);
    if (!Number.isInteger(sampleRate) || sampleRate <= 0)
      return refuse('sample_rate must be a positive integer');
    record.status = 101;
    return {
      accept: track((socket) =>
        runSttSession(socket, {
          script,
          delay,
          record,
          finish,
          encoding,
          sampleRate,
          transcript: (audio, segment) =>
            resolvePerCall(options.transcript, { ...context, audio, segment }) ?? DEFAULT_TRANSCRIPT,
        }),
      ),
    };
  }

  return {
    requests: endpoints.requests,
    sockets,
    handle(request) {
      const { pathname } = new URL(request.url);
      const endpoint = HTTP_PATHS.find(([suffix]) => pathname.endsWith(suffix))?.[1];
      return endpoints.serve(request, endpoint, http);
    },
    upgrade,
    calls: (endpoint) => endpoints.calls(endpoint),
    closeSockets(code = 1001, reason = '') {
      for (const socket of [...open]) socket.close(code, reason);
    },
    reset() {
      endpoints.reset();
      sockets.length = 0;
    },
  };
}
