import type { ConfigError } from '../errors/config-error.js';
import { RequestError } from '../errors/request-error.js';
import type { Preflight } from '../routing/preflight.js';
import { unknownKeyProblem } from '../routing/request-keys.js';
import {
  chatRequestProblem,
  formatProblem,
  msRule,
  numberProblem,
  sttRequestProblem,
  ttsRequestProblem,
} from '../routing/validate-request.js';
import { chatFields, sttFields, ttsFields } from './stage-fields.js';
import type { VoiceTurnRequest } from './types.js';

const STAGES = ['stt', 'chat', 'tts'] as const;

/** The fields of a voiceTurn() request (the compiler checks that none is missing or extra). */
const TURN_REQUEST_KEYS: readonly string[] = Object.keys({
  audio: true,
  format: true,
  messages: true,
  model: true,
  tools: true,
  maxTokens: true,
  temperature: true,
  voice: true,
  output: true,
  routes: true,
  language: true,
  speed: true,
  interim: true,
  budgetMs: true,
  signal: true,
} satisfies Record<keyof VoiceTurnRequest, true>);

/**
 * The first problem of a voiceTurn() request, as the RequestError its stage would throw
 * (field names are the turn's: `output` for the reply's format, `routes.tts` for a route), or
 * undefined. Checks every field of the three stages, so a bad voice is found before the STT
 * stage (which is billed) starts.
 */
export function turnRequestProblem(request: VoiceTurnRequest): RequestError | undefined {
  if (typeof request !== 'object' || request === null)
    return new RequestError('(request)', `expected a voice turn request object, got ${typeof request}`);
  const unknown = unknownKeyProblem(request, TURN_REQUEST_KEYS);
  if (unknown) return unknown;
  if (!Array.isArray(request.messages))
    return new RequestError('messages', 'expected an array of messages (the chat history; may be empty)');
  const { stt, chat, tts } = stageRequests(request);
  const problem =
    sttRequestProblem(stt) ??
    chatRequestProblem(chat) ??
    ttsRequestProblem(tts) ??
    (request.output !== undefined ? formatProblem(request.output, 'output') : undefined);
  if (problem) return problem;
  const routes = request.routes as unknown;
  if (routes !== undefined) {
    if (typeof routes !== 'object' || routes === null)
      return new RequestError('routes', 'expected an object of route names { stt?, chat?, tts? }');
    // The stage names are short: one edit off (`sst`) still gets a suggestion.
    const stage = unknownKeyProblem(routes, STAGES, 'routes.', 1);
    if (stage) return stage;
    for (const stage of STAGES) {
      const name = (routes as Record<string, unknown>)[stage];
      if (name !== undefined && (typeof name !== 'string' || name === ''))
        return new RequestError(`routes.${stage}`, 'expected a route name');
    }
  }
  return numberProblem(request.budgetMs, 'budgetMs', msRule());
}

/**
 * The error the turn would end with at one of its stages before any provider is contacted,
 * stt first; undefined when every stage has a provider. `preflight` is the router's. A route
 * the request names that does not exist (RequestError at `routes.<stage>`), a model or voice
 * no provider of its route maps (RequestError at `model` or `voice`); a stage's default route
 * missing from the config (ConfigError).
 */
export function turnConfigProblem(
  request: VoiceTurnRequest,
  preflight: Preflight,
): ConfigError | RequestError | undefined {
  const routes = request.routes ?? {};
  const { stt, chat, tts } = stageRequests(request);
  return (
    preflight({
      capability: 'stt',
      routeField: 'routes.stt',
      // The check must not open the caller's audio (building the STT call would): a web
      // ReadableStream locks on its first iterator, and the STT stage opens it for real.
      request: { ...stt, audio: NO_AUDIO, ...(routes.stt !== undefined ? { route: routes.stt } : {}) },
    }) ??
    preflight({
      capability: 'chat',
      routeField: 'routes.chat',
      request: { ...chat, ...(routes.chat !== undefined ? { route: routes.chat } : {}) },
    }) ??
    preflight({
      capability: 'tts',
      routeField: 'routes.tts',
      request: { ...tts, ...(routes.tts !== undefined ? { route: routes.tts } : {}) },
    })
  );
}

/** Stands in for the caller's audio in the STT stage's check; never read. */
const NO_AUDIO: AsyncIterable<Uint8Array> = {
  [Symbol.asyncIterator]: () => ({ next: async () => ({ done: true, value: undefined }) }),
};

/**
 * The three stages' requests as far as the turn's request knows them (no transcript, no reply
 * yet), with the fields each stage takes of the turn (stage-fields.ts): the stage's own check
 * then finds a bad one, by the turn's field name (`maxTokens`, `speed`, `language`...).
 */
function stageRequests(request: VoiceTurnRequest) {
  const signal = request.signal !== undefined ? { signal: request.signal } : {};
  return {
    stt: { audio: request.audio, format: request.format, ...sttFields(request), ...signal },
    chat: {
      messages: [...request.messages, { role: 'user' as const, content: '' }],
      model: request.model,
      ...chatFields(request),
      ...signal,
    },
    tts: { text: '', voice: request.voice, ...ttsFields(request), ...signal },
  };
}
