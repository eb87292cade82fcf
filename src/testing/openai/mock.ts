import type { Delay } from '../delay.js';
import { checkFactoryOptions } from '../mock-options.js';
import type { MockProvider } from '../mock-provider.js';
import type { MockScript } from '../mock-script.js';
import { DEFAULT_CHUNK_BYTES } from '../mock-script.js';
import type { CallContext, PerCall } from '../per-call.js';
import { resolvePerCall, resolveScript } from '../per-call.js';
import type { RecordedRequest } from '../recorded-request.js';
import { checkChatReplies } from '../reply-checks.js';
import type { BodyPlan } from '../scripted-body.js';
import { type Arrival, type HttpHandling, isPerEndpoint, scriptedEndpoint } from '../scripted-endpoint.js';
import type { ChatReply, RequestProblem } from './chat.js';
import { chatPlan, OPENAI_FINISH_REASONS } from './chat.js';
import type { OpenAiDialect } from './dialect.js';
import { errorBody } from './dialect.js';
import { listedModels, modelsAnswer } from './models.js';
import type { MockSpeechOptions } from './speech.js';
import { speechPlan } from './speech.js';
import { DEFAULT_TRANSCRIPT, transcriptionPlan, uploadedFile } from './transcription.js';

/**
 * The endpoints of the OpenAI-compatible mock, by the end of their paths: `'chat'`
 * (`/chat/completions`), `'speech'` (`/audio/speech`), `'transcription'` (`/audio/transcriptions`),
 * `'models'` (`GET /models` and `GET /models/{id}`).
 *
 * @example
 * ```ts
 * expect(mock.calls('chat' satisfies OpenAiEndpoint)).toBe(2);
 * ```
 */
export type OpenAiEndpoint = 'chat' | 'speech' | 'transcription' | 'models';

const ENDPOINTS: readonly OpenAiEndpoint[] = ['chat', 'speech', 'transcription', 'models'];
const PATHS: ReadonlyArray<readonly [string, OpenAiEndpoint]> = [
  ['/chat/completions', 'chat'],
  ['/audio/speech', 'speech'],
  ['/audio/transcriptions', 'transcription'],
];

/**
 * What a transcript function receives: the call number, its record, and the uploaded file's
 * bytes (e.g. a WAV file: header included).
 *
 * @example
 * ```ts
 * const transcript = ({ audio }: TranscriptContext) => (audio.byteLength > 32044 ? 'long' : 'short');
 * ```
 */
export interface TranscriptContext extends CallContext {
  /** The bytes of the uploaded audio file, as sent (a WAV file: header included). */
  audio: Uint8Array;
}

/**
 * One script per endpoint, each a {@link MockScript} for every call, an array one per call, or a
 * function of the call ({@link PerCall}); call numbers count per endpoint, from 1. An endpoint
 * left out runs unscripted (answers at once, correctly). Times are in ms.
 *
 * @example
 * ```ts
 * const script: EndpointScripts = { chat: { firstChunkDelayMs: 80 }, speech: [{ resetAfterChunks: 2 }] };
 * ```
 */
export interface EndpointScripts {
  /**
   * `POST /chat/completions`. A chunk is one SSE frame (the first role-only chunk and the
   * closing frames included), or the whole body of a non-streamed JSON completion. Default: none.
   */
  chat?: PerCall<MockScript>;
  /**
   * `POST /audio/speech`. A chunk is one write of raw audio of `chunkBytes` bytes (default 4800,
   * 100 ms of 24 kHz PCM s16le; the last may be shorter), or one SSE frame of base64 audio
   * when the request asks for `stream_format: 'sse'`. Default: none.
   */
  speech?: PerCall<MockScript>;
  /**
   * `POST /audio/transcriptions` (multipart upload). A chunk is one SSE frame of a streamed
   * transcript (`stream: true`), or the whole JSON body of one that is not. Default: none.
   */
  transcription?: PerCall<MockScript>;
  /**
   * `GET /models` and `GET /models/{id}`: one JSON body (a single chunk), so `headersDelayMs`,
   * `failTimes` / `failStatus` / `failBody` / `retryAfter` and `resetAfterChunks: 0` are the
   * fields that apply. Default: none.
   */
  models?: PerCall<MockScript>;
}

/**
 * Options of {@link createOpenAiCompatibleMock}. Everything is optional.
 *
 * @example
 * ```ts
 * const options: OpenAiCompatibleMockOptions = { dialect: 'speaches', transcript: 'Ask not.' };
 * ```
 */
export interface OpenAiCompatibleMockOptions {
  /** Server to imitate (error shapes, stream shapes). Default: `'openai'`. */
  dialect?: OpenAiDialect | undefined;
  /** When set, every request needs `Authorization: Bearer <apiKey>`, or gets a 401. */
  apiKey?: string | undefined;
  /** Latency and faults: one script for every endpoint, or one per endpoint (see MockScript). */
  script?: PerCall<MockScript> | EndpointScripts | undefined;
  /** The chat model's reply. Default: `'This is a mock reply.'` */
  chat?: PerCall<ChatReply> | undefined;
  /** The transcript, fixed or a function of the audio. Default: `'This is a mock transcript.'` */
  transcript?: PerCall<string, TranscriptContext> | undefined;
  /** How speech audio is made (60 ms a character at 24 kHz by default). */
  speech?: MockSpeechOptions | undefined;
  /** Waits for the script's delays. Default: real timers ({@link realDelay}). */
  delay?: Delay | undefined;
  /** Clock for `receivedAtMs`, in ms. Default: `performance.now()`. */
  now?: (() => number) | undefined;
  /**
   * The model ids `GET /models` lists first (in this order, then DEFAULT_MOCK_MODELS not among
   * them) and `GET /models/{id}` finds; other ids are a 404. Requests to the other endpoints
   * take any model. Default: none (only DEFAULT_MOCK_MODELS are listed); `startMockProviders`
   * gives the provider ids of the config (chat models, tts and stt models).
   */
  models?: readonly string[] | undefined;
}

/**
 * The OpenAI-compatible mock: a {@link MockProvider} with per-endpoint call counts.
 *
 * @example
 * ```ts
 * const mock: OpenAiCompatibleMock = createOpenAiCompatibleMock();
 * const response = await mock.handle(new Request('http://mock.test/v1/chat/completions', init));
 * ```
 */
export interface OpenAiCompatibleMock extends MockProvider {
  /**
   * The server the mock imitates (error shapes, stream details), as given in its options. Default:
   * `'openai'`.
   */
  readonly dialect: OpenAiDialect;
  /** Requests received so far on `endpoint`. */
  calls(endpoint: OpenAiEndpoint): number;
  /** Forgets the recorded requests and restarts call numbering (and `x-request-id` numbering) at 1. */
  reset(): void;
}

function isProblem(plan: BodyPlan | RequestProblem): plan is RequestProblem {
  return 'message' in plan;
}

/**
 * A mock of the OpenAI-compatible HTTP API (OpenAI, vLLM, Kokoro-FastAPI, speaches), written
 * once over web `Request`/`Response`, to serve through msw ({@link openAiCompatibleHandlers})
 * or on a real port (`startMockServer`). Endpoints, matched by the end of the path under any
 * base URL:
 * - `POST .../chat/completions`: streamed SSE or JSON chat completions (see `chatPlan`);
 * - `POST .../audio/speech`: `pcm`, streamed `wav`, or SSE audio (see `speechPlan`);
 * - `POST .../audio/transcriptions`: multipart upload; SSE or JSON transcripts (see `transcriptionPlan`);
 * - `GET .../models`: `{ object: 'list', data: [{ id, object: 'model', created, owned_by }] }` of
 *   `options.models` followed by DEFAULT_MOCK_MODELS (each id once), and
 *   `GET .../models/{id}` (id percent-decoded) one of them, else a 404
 *   (`model_not_found` for the `openai` dialect), as the official client's `models.list()` and
 *   `models.retrieve()` read them.
 * A method other than the endpoint's is a 405. Anything else is a 404 in the dialect's error shape; a bad body is a 400 (422 for speaches).
 * With the `openai` dialect every answer (success or error) carries OpenAI's `x-request-id`
 * header, `req_mock_<n>` with n counting the mock's requests from 1 (restarted by `reset()`),
 * which the official client reads as `_request_id` and `APIError.requestID`; the self-hosted
 * dialects send none. Every request is recorded in `requests`. Throws a TypeError naming this
 * function and the field (e.g. `createOpenAiCompatibleMock: options.chat.toolCalls.0.arguments: expected ...`)
 * when an option is unknown or of the wrong type, or a `chat` value given as such (not a
 * function) has the wrong shape.
 *
 * @example
 * ```ts
 * const mock = createOpenAiCompatibleMock({
 *   apiKey: 'test-key',
 *   chat: 'Your table is booked.',
 *   script: { chat: [{ failTimes: 1, failStatus: 503, retryAfter: '1' }], speech: { chunkBytes: 4063 } },
 * });
 * const server = await startMockServer({ provider: mock });
 * ```
 */
export function createOpenAiCompatibleMock(options: OpenAiCompatibleMockOptions = {}): OpenAiCompatibleMock {
  checkFactoryOptions('createOpenAiCompatibleMock', 'openai', options, () =>
    checkChatReplies(options.chat, 'chat', {
      tools: 'toolCalls',
      args: 'arguments',
      end: { field: 'finishReason', values: OPENAI_FINISH_REASONS },
    }),
  );
  const dialect = options.dialect ?? 'openai';
  const endpoints = scriptedEndpoint<OpenAiEndpoint>({
    endpoints: ENDPOINTS,
    delay: options.delay,
    now: options.now,
  });
  const validationStatus = dialect === 'speaches' ? 422 : 400;
  const models = listedModels(options.models ?? []);
  // OpenAI's `x-request-id`, one per request (the official client's `_request_id`, `requestID`).
  let requestCount = 0;
  const requestIds = new WeakMap<RecordedRequest, string>();
  const requestIdHeader = ({ record }: Arrival<OpenAiEndpoint>): Record<string, string> => {
    if (dialect !== 'openai') return {};
    let id = requestIds.get(record);
    if (id === undefined) {
      id = `req_mock_${++requestCount}`;
      requestIds.set(record, id);
    }
    return { 'x-request-id': id };
  };

  const handling: HttpHandling<OpenAiEndpoint, MockScript> = {
    error: (status, message) => errorBody(dialect, status, message),
    errorHeaders: requestIdHeader,
    unreadableBody: { status: validationStatus, message: 'The multipart form could not be parsed' },
    methods: { models: 'GET' },
    auth({ headers }) {
      if (options.apiKey === undefined) return undefined;
      const auth = headers.authorization;
      if (auth === undefined) return "You didn't provide an API key.";
      return auth === `Bearer ${options.apiKey}` ? undefined : 'Incorrect API key provided.';
    },
    script({ endpoint, context }) {
      const spec = options.script;
      if (isPerEndpoint<EndpointScripts>(spec, ENDPOINTS)) return resolveScript(spec[endpoint], context);
      return resolveScript(spec, context);
    },
    failureMessage: (call, failTimes) =>
      Number.isSafeInteger(failTimes) && failTimes < 1_000_000
        ? `mock failure ${call} of ${failTimes}`
        : 'mock failure (scripted to always fail)',
    plan(arrival, script) {
      const { endpoint, call, record, context } = arrival;
      if (endpoint === 'models') return modelsAnswer(arrival.url.pathname, models, dialect);
      let plan: BodyPlan | RequestProblem | { status: number; body: unknown };
      if (endpoint === 'chat') {
        plan = chatPlan(record.body, {
          dialect,
          call,
          reply: resolvePerCall(options.chat, context),
          errorEvent: script.errorEvent,
        });
      } else if (endpoint === 'speech') {
        plan = speechPlan(record.body, {
          dialect,
          speech: options.speech ?? {},
          chunkBytes: script.chunkBytes ?? DEFAULT_CHUNK_BYTES,
          errorEvent: script.errorEvent,
        });
      } else {
        const form = record.form ?? {};
        const file = uploadedFile(form);
        const text = file && resolvePerCall(options.transcript, { ...context, audio: file.bytes });
        plan = transcriptionPlan(form, {
          dialect,
          call,
          text: text ?? DEFAULT_TRANSCRIPT,
          errorEvent: script.errorEvent,
        });
      }
      if ('body' in plan) return plan;
      if (!isProblem(plan)) return { ...plan, headers: { ...plan.headers, ...requestIdHeader(arrival) } };
      return { status: plan.status === 400 ? validationStatus : plan.status, message: plan.message };
    },
  };

  return {
    dialect,
    requests: endpoints.requests,
    handle(request) {
      const { pathname } = new URL(request.url);
      const endpoint =
        PATHS.find(([suffix]) => pathname.endsWith(suffix))?.[1] ??
        (/\/models(?:\/.+)?$/.test(pathname) ? 'models' : undefined);
      return endpoints.serve(request, endpoint, handling);
    },
    calls: (endpoint) => endpoints.calls(endpoint),
    reset() {
      endpoints.reset();
      requestCount = 0;
    },
  };
}
