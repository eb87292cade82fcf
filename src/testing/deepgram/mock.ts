import type { AudioFormat } from '../../types/audio.js';
import type { Delay } from '../delay.js';
import { checkFactoryOptions } from '../mock-options.js';
import type { MockProvider } from '../mock-provider.js';
import { DEFAULT_CHUNK_BYTES, type MockScript } from '../mock-script.js';
import type { MockUpgrade } from '../mock-websocket.js';
import { type PerCall, resolvePerCall, resolveScript } from '../per-call.js';
import { type EndpointHandling, type HttpHandling, scriptedEndpoint } from '../scripted-endpoint.js';
import { deepgramErrorBody, deepgramRequestId } from './errors.js';
import { DEEPGRAM_INACTIVITY_TIMEOUT_MS, type DeepgramListenScript } from './listen-script.js';
import { type DeepgramListenSession, runListenSession } from './listen-session.js';
import { type DeepgramMockSpeechOptions, speakPlan } from './speak.js';
import { DEEPGRAM_DEFAULT_WORD_MS, DEFAULT_DEEPGRAM_TRANSCRIPT, deepgramMockWords } from './transcript.js';

/**
 * The endpoints of the Deepgram mock: `'speak'` (`POST /v1/speak`) and `'listen'`
 * (`/v1/listen` WebSocket).
 *
 * @example
 * ```ts
 * expect(mock.calls('listen' satisfies DeepgramEndpointName)).toBe(1);
 * ```
 */
export type DeepgramEndpointName = 'speak' | 'listen';

/**
 * Scripts of the Deepgram mock: one per endpoint (an endpoint left out runs unscripted).
 *
 * @example
 * ```ts
 * const scripts: DeepgramMockScripts = { speak: [{ failTimes: 1, failStatus: 429 }], listen: { closeAfterChunks: 0 } };
 * ```
 */
export interface DeepgramMockScripts {
  /** Script of `POST /v1/speak` (TTS), per call. */
  speak?: PerCall<MockScript>;
  /** Script of the `/v1/listen` WebSocket (STT), per connection. */
  listen?: PerCall<DeepgramListenScript>;
}

/**
 * Options of {@link createDeepgramMock}. Everything is optional.
 *
 * @example
 * ```ts
 * const options: DeepgramMockOptions = { apiKey: 'dg-test', transcript: 'Book a table.', inactivityTimeoutMs: 3000 };
 * ```
 */
export interface DeepgramMockOptions {
  /**
   * When set, every request needs this key: `Authorization: Token <key>` (or `Bearer <key>`),
   * or on `/v1/listen` the subprotocols `token, <key>`; otherwise HTTP 401 (deepgram-js-sdk).
   */
  apiKey?: string | undefined;
  /** Latency and faults per endpoint (see MockScript and DeepgramListenScript). */
  script?: DeepgramMockScripts | undefined;
  /** What `/v1/listen` hears, per connection. Default {@link DEFAULT_DEEPGRAM_TRANSCRIPT}. */
  transcript?: PerCall<string> | undefined;
  /** Length of each transcript word on the audio timeline, in ms. Default 400. */
  wordMs?: number | undefined;
  /**
   * Close `/v1/listen` with 1011 and a `NET-0001` reason after this many ms without a frame from
   * the client (waited through `delay`); 0 turns it off. Default 10000, Deepgram's window.
   */
  inactivityTimeoutMs?: number | undefined;
  /** How `/v1/speak` makes audio (60 ms a character by default). */
  speech?: DeepgramMockSpeechOptions | undefined;
  /** Waits for the scripts' delays and the inactivity window. Default: real timers ({@link realDelay}). */
  delay?: Delay | undefined;
  /** Clock for `receivedAtMs`, in ms. Default: `performance.now()`. */
  now?: (() => number) | undefined;
}

/**
 * The Deepgram mock: a MockProvider (HTTP and WebSocket) with the record of its listen sessions.
 *
 * @example
 * ```ts
 * const mock: DeepgramMock = createDeepgramMock({ apiKey: 'dg-test' });
 * const server = await startMockServer({ provider: mock });
 * ```
 */
export interface DeepgramMock extends MockProvider {
  upgrade(request: Request): MockUpgrade;
  /** Every accepted `/v1/listen` session, in order. */
  readonly sessions: DeepgramListenSession[];
  /** Resolves with the `index`-th (0-based) accepted listen session, once it exists. */
  session(index: number): Promise<DeepgramListenSession>;
  /** Requests (HTTP and upgrades) received so far on `endpoint`. */
  calls(endpoint: DeepgramEndpointName): number;
  /** Forgets recorded requests and sessions and restarts call numbering at 1. */
  reset(): void;
}

const LISTEN_ENCODINGS: Record<string, AudioFormat['encoding']> = {
  linear16: 'pcm_s16le',
  mulaw: 'mulaw',
  alaw: 'alaw',
};

function endpointOf(pathname: string): DeepgramEndpointName | undefined {
  if (pathname.endsWith('/v1/speak')) return 'speak';
  if (pathname.endsWith('/v1/listen')) return 'listen';
  return undefined;
}

/** True when the request carries `key`: `Authorization: Token|Bearer <key>` or subprotocols `token|bearer, <key>`. */
function authorized(headers: Record<string, string>, key: string): boolean {
  const auth = headers.authorization;
  if (auth === `Token ${key}` || auth === `Bearer ${key}`) return true;
  const protocols = (headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
  const scheme = protocols[0]?.toLowerCase();
  return (scheme === 'token' || scheme === 'bearer') && protocols[1] === key;
}

/**
 * A wire-accurate mock of Deepgram (Deepgram's API reference and deepgram-js-sdk), written once over web
 * `Request`/`Response` and MockSocket, served by `startMockServer` (HTTP and WebSocket) or msw
 * ({@link deepgramHandlers}):
 * - `POST .../v1/speak?model&encoding&sample_rate&container`: body `{"text"}`; streamed raw or
 *   WAV audio of the synthetic voice in the asked format (see `speakPlan`); errors in Deepgram's
 *   `{"err_code","err_msg","request_id"}` shape;
 * - `.../v1/listen?model&encoding&sample_rate&channels&interim_results&punctuate|smart_format`
 *   (`&endpointing`, `&utterance_end_ms`, `&vad_events`):
 *   a WebSocket whose `Results` carry the configured transcript, word by word as the audio
 *   arrives (`UtteranceEnd` and `SpeechStarted` when asked), then `Metadata` and a close after
 *   CloseStream; Finalize, KeepAlive and the inactivity close as Deepgram does them (see
 *   `runListenSession`). The upgrade is refused with 401 for a bad key and 400 for a missing
 *   or non-raw `encoding` or a missing `sample_rate`.
 * Every request, upgrades included, is recorded in `requests`; listen sessions in `sessions`.
 *
 * Throws a TypeError naming this function and the field (e.g.
 * `createDeepgramMock: options.script.failTimes: expected a number, got a string`) when an option is
 * unknown or of the wrong type.
 *
 * @example
 * ```ts
 * const mock = createDeepgramMock({ apiKey: 'dg-test', transcript: 'Your table is booked.' });
 * const server = await startMockServer({ provider: mock });
 * // REST: `${server.url}/v1/speak?...`; WebSocket: `${server.url.replace('http', 'ws')}/v1/listen?...`
 * ```
 */
export function createDeepgramMock(options: DeepgramMockOptions = {}): DeepgramMock {
  checkFactoryOptions('createDeepgramMock', 'deepgram', options);
  const endpoints = scriptedEndpoint<DeepgramEndpointName>({
    endpoints: ['speak', 'listen'],
    delay: options.delay,
    now: options.now,
  });
  const { delay } = endpoints;
  const sessions: DeepgramListenSession[] = [];
  const sessionWaiters: Array<{ index: number; resolve(session: DeepgramListenSession): void }> = [];
  const error = (status: number, message: string, { call }: { call: number }) =>
    deepgramErrorBody(status, message, deepgramRequestId(call));
  const auth = ({ headers }: { headers: Record<string, string> }) =>
    options.apiKey !== undefined && !authorized(headers, options.apiKey) ? 'Invalid credentials.' : undefined;

  const speak: HttpHandling<DeepgramEndpointName, MockScript> = {
    serves: ['speak'],
    error,
    unreadableBody: { status: 400, message: 'The body could not be read' },
    auth,
    script: ({ context }) => resolveScript(options.script?.speak, context),
    plan: ({ record, url }, script) =>
      speakPlan(record.body, url.searchParams, {
        speech: options.speech ?? {},
        chunkBytes: script.chunkBytes ?? DEFAULT_CHUNK_BYTES,
      }),
  };
  const listen: EndpointHandling<DeepgramEndpointName, DeepgramListenScript> = {
    serves: ['listen'],
    error,
    auth,
    script: ({ context }) => resolveScript(options.script?.listen, context),
  };

  function upgrade(request: Request): MockUpgrade {
    const admitted = endpoints.admitUpgrade(request, endpointOf(new URL(request.url).pathname), listen);
    if (admitted.refused) return admitted.refused;
    const { arrival, script } = admitted;
    const { record, finish, call, url, context } = arrival;
    const requestId = deepgramRequestId(call);
    const reject = (message: string) =>
      endpoints.refuse(arrival, 400, deepgramErrorBody(400, message, requestId));
    const query: Record<string, string> = {};
    for (const [name, value] of url.searchParams) query[name] = value;
    const encoding = query.encoding === undefined ? undefined : LISTEN_ENCODINGS[query.encoding];
    if (encoding === undefined) {
      return reject(
        `encoding '${query.encoding ?? ''}' is not served by the mock server: use linear16, mulaw or alaw`,
      );
    }
    const sampleRate = Number(query.sample_rate);
    if (!Number.isInteger(sampleRate) || sampleRate < 1000) {
      return reject('sample_rate is required with raw audio: an integer in Hz');
    }
    if (query.channels !== undefined && query.channels !== '1') {
      return reject('the mock server serves mono audio only (channels=1)');
    }
    const transcript = resolvePerCall(options.transcript, context) ?? DEFAULT_DEEPGRAM_TRANSCRIPT;
    const punctuated = query.punctuate === 'true' || query.smart_format === 'true';
    return {
      accept: (socket) => {
        record.status = 101;
        const session = runListenSession({
          socket,
          record,
          finish,
          query,
          format: { encoding, sampleRate, channels: 1 },
          words: deepgramMockWords(transcript, options.wordMs ?? DEEPGRAM_DEFAULT_WORD_MS),
          interim: query.interim_results === 'true',
          context: { requestId, model: query.model ?? 'nova-3', punctuated },
          script,
          delay,
          inactivityMs: options.inactivityTimeoutMs ?? DEEPGRAM_INACTIVITY_TIMEOUT_MS,
        });
        sessions.push(session);
        for (const waiter of [...sessionWaiters]) {
          const found = sessions[waiter.index];
          if (found) {
            sessionWaiters.splice(sessionWaiters.indexOf(waiter), 1);
            waiter.resolve(found);
          }
        }
      },
    };
  }

  return {
    requests: endpoints.requests,
    sessions,
    handle: (request) => endpoints.serve(request, endpointOf(new URL(request.url).pathname), speak),
    upgrade,
    session(index) {
      const found = sessions[index];
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => sessionWaiters.push({ index, resolve }));
    },
    calls: (endpoint) => endpoints.calls(endpoint),
    reset() {
      endpoints.reset();
      sessions.length = 0;
    },
  };
}
