import { VoxrouteError } from '../errors/voxroute-error.js';
import { LOAD_FAILED_HINT } from '../internal/lazy.js';
import type { HttpTransport } from './types.js';
import type { WebSocketTransport } from './websocket-types.js';

/** A router's two transports. */
export interface Transports {
  http: HttpTransport;
  webSocket: WebSocketTransport;
}

/**
 * Stand-ins for a router's HTTP and WebSocket transports while their code loads in the
 * background (it comes with the adapters' code, so that `import('voxroute')` compiles none of
 * it). The load starts at once. Once built, the transports are handed to `loaded` (the router
 * puts them in the stand-ins' place: calls planned from then on reach them directly) and the
 * stand-ins only forward to them: `request()`, `preconnect()` and `connect()` wait for the load,
 * then are the built transport's own; `canSendHeaders` reads the built WebSocket transport's
 * (undefined before the load: nothing reads it before, since an attempt starts only once its
 * adapter's code, loaded by the same import, is there). A failed load (a damaged install)
 * rejects those calls with a VoxrouteError (the load's error as `cause`), which charges no
 * provider; the next call asks for the load again (which Node 20 and 22 answer with the same
 * failure: see LOAD_FAILED_HINT). `close()` waits for a load in progress and
 * closes what it built; it never rejects.
 */
export function lazyTransports(
  load: () => Promise<Transports>,
  loaded?: (built: Transports) => void,
): Transports {
  let built: Transports | undefined;
  let loading: Promise<Transports> | undefined;
  const get = (): Promise<Transports> => {
    if (built) return Promise.resolve(built);
    loading ??= load().then(
      (transports) => {
        built = transports;
        loaded?.(transports);
        return transports;
      },
      (error: unknown) => {
        loading = undefined;
        throw new VoxrouteError(`The transport code of the router could not be loaded ${LOAD_FAILED_HINT}`, {
          cause: error,
        });
      },
    );
    return loading;
  };
  /** The built transports, once a load in progress has ended; undefined when none was built. */
  const settled = async (): Promise<Transports | undefined> => built ?? loading?.catch(() => undefined);
  get().catch(() => {});
  return {
    http: {
      request: async (request) => (await get()).http.request(request),
      preconnect: async (origin, options) => (await get()).http.preconnect?.(origin, options),
      close: async () => (await settled())?.http.close(),
    },
    webSocket: {
      connect: async (request) => (await get()).webSocket.connect(request),
      get canSendHeaders() {
        return built?.webSocket.canSendHeaders;
      },
      close: async () => (await settled())?.webSocket.close?.(),
    },
  };
}
