import { ApiError, sendJson } from './api-error.js';
import { handleChat } from './chat-route.js';
import type { RouteContext } from './context.js';
import { ENGINE_PACKAGES, findExecutable } from './engines.js';
import { ECHO_MODEL_ID } from './responder.js';
import { handleSpeech } from './speech-route.js';
import { handleTranscription } from './transcription-route.js';

/** Model ids served: the chat responder, and names for the two engines (their `model` field is not checked). */
export const MODEL_IDS = [ECHO_MODEL_ID, 'espeak-ng', 'pocketsphinx'] as const;

/** `GET /v1/models`: the OpenAI model list `{"object":"list","data":[{id,object:"model",created,owned_by}]}`. */
function handleModels(ctx: RouteContext): void {
  const created = Math.floor(ctx.settings.now() / 1000);
  sendJson(ctx.res, {
    object: 'list',
    data: MODEL_IDS.map((id) => ({ id, object: 'model', created, owned_by: 'voxroute' })),
  });
}

/**
 * `GET /health`: `{"status":"ok","engines":{"espeak-ng":{"path"|null,"install"},"pocketsphinx":...}}`,
 * with the path each engine resolves to now (null when missing) and the Debian packages that
 * provide it. Needs no API key, so a load balancer can probe it.
 */
async function handleHealth(ctx: RouteContext): Promise<void> {
  const { espeak, pocketsphinx } = ctx.settings.engines;
  const espeakPath = await findExecutable(espeak ?? 'espeak-ng');
  const sphinxPath =
    pocketsphinx !== undefined
      ? await findExecutable(pocketsphinx)
      : ((await findExecutable('pocketsphinx_continuous')) ?? (await findExecutable('pocketsphinx')));
  sendJson(ctx.res, {
    status: 'ok',
    engines: {
      'espeak-ng': {
        path: espeakPath ?? null,
        install: `apt-get install -y ${ENGINE_PACKAGES['espeak-ng']}`,
      },
      pocketsphinx: {
        path: sphinxPath ?? null,
        install: `apt-get install -y ${ENGINE_PACKAGES.pocketsphinx}`,
      },
    },
  });
}

/** One route: its method, whether it needs the API key, and its handler. */
export interface Route {
  method: 'GET' | 'POST';
  /** False only for `/health`. */
  authenticated: boolean;
  handle: (ctx: RouteContext) => void | Promise<void>;
}

/** The routes by path. */
export const ROUTES: ReadonlyMap<string, Route> = new Map<string, Route>([
  ['/health', { method: 'GET', authenticated: false, handle: handleHealth }],
  ['/v1/models', { method: 'GET', authenticated: true, handle: handleModels }],
  ['/v1/chat/completions', { method: 'POST', authenticated: true, handle: handleChat }],
  ['/v1/audio/speech', { method: 'POST', authenticated: true, handle: handleSpeech }],
  ['/v1/audio/transcriptions', { method: 'POST', authenticated: true, handle: handleTranscription }],
]);

/**
 * The route of `method` and `pathname`. Throws ApiError 404 `unknown_url` for an unknown path
 * and 405 `method_not_allowed` (with an `Allow` header) for a known path with another method.
 */
export function findRoute(method: string, pathname: string): Route {
  const route = ROUTES.get(pathname);
  if (route === undefined) {
    throw new ApiError(404, `Unknown request URL: ${method} ${pathname.slice(0, 200)}.`, {
      code: 'unknown_url',
    });
  }
  if (route.method !== method) {
    throw new ApiError(405, `${pathname} accepts ${route.method} only.`, {
      code: 'method_not_allowed',
      headers: { allow: route.method },
    });
  }
  return route;
}
