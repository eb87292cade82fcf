import { MOCK_CREATED } from './chat.js';
import type { OpenAiDialect } from './dialect.js';
import { errorBody } from './dialect.js';

/**
 * The model ids the OpenAI-compatible mock always lists on `GET /models` (after the ones it is
 * configured with) and finds on `GET /models/{id}`: the ids the official OpenAI clients use in
 * their examples for each endpoint the mock serves, `gpt-4o-mini` (chat), `gpt-4o-mini-tts` and
 * `tts-1` (speech), `gpt-4o-mini-transcribe` and `whisper-1` (transcription). The endpoints
 * themselves take any model id.
 *
 * @example
 * ```ts
 * const ids = (await openai.models.list()).data.map((m) => m.id);
 * expect(ids).toEqual(['my-model', ...DEFAULT_MOCK_MODELS]);
 * ```
 */
export const DEFAULT_MOCK_MODELS: readonly string[] = Object.freeze([
  'gpt-4o-mini',
  'gpt-4o-mini-tts',
  'tts-1',
  'gpt-4o-mini-transcribe',
  'whisper-1',
]);

/** The ids `GET /models` lists: `configured` in order, then the DEFAULT_MOCK_MODELS not among them. */
export function listedModels(configured: readonly string[]): string[] {
  return [...new Set([...configured, ...DEFAULT_MOCK_MODELS])];
}

/** One entry of `GET /models`, as OpenAI (and vLLM, without its extra fields) lists it. */
export interface MockModelObject {
  id: string;
  object: 'model';
  /** Unix seconds: the mock's fixed creation time (1,700,000,000). */
  created: number;
  owned_by: 'voxroute-mock';
}

/** The path's model id (`.../models/{id}`, percent-decoded: the openai client sends `/` as `%2F`), or undefined for the list (`.../models`). */
export function modelIdOf(pathname: string): string | undefined {
  const raw = /\/models\/(.+)$/.exec(pathname)?.[1];
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

const modelObject = (id: string): MockModelObject => ({
  id,
  object: 'model',
  created: MOCK_CREATED,
  owned_by: 'voxroute-mock',
});

/**
 * The answer to `GET .../models` (`{ object: 'list', data: [model...] }`, in the order of
 * `models`) or `GET .../models/{id}` (the model object, or a 404: for the `openai` dialect
 * OpenAI's own `model_not_found` error, else the dialect's 404 shape).
 */
export function modelsAnswer(
  pathname: string,
  models: readonly string[],
  dialect: OpenAiDialect,
): { status: number; body: unknown } {
  const id = modelIdOf(pathname);
  if (id === undefined) return { status: 200, body: { object: 'list', data: models.map(modelObject) } };
  if (models.includes(id)) return { status: 200, body: modelObject(id) };
  const message = `The model '${id}' does not exist`;
  return {
    status: 404,
    body:
      dialect === 'openai'
        ? { error: { message, type: 'invalid_request_error', param: 'model', code: 'model_not_found' } }
        : errorBody(dialect, 404, message),
  };
}
