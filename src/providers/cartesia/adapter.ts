import { systemClock } from '../../internal/clock.js';
import type { ProviderAdapter } from '../types.js';
import { CARTESIA_DEFAULT_KEEP_WARM_MS } from './config.js';
import { createCartesiaEndpoint } from './endpoint.js';
import type { CartesiaAdapterOptions } from './options.js';
import { TtsSocketPool } from './socket-pool.js';
import { socketTransportPicker } from './socket-transport.js';
import { createCartesiaStt } from './stt.js';
import { type CartesiaTtsProvider, createCartesiaTts } from './tts.js';

/** A Cartesia adapter: TTS and/or STT, and `close()` for its warm socket. */
export interface CartesiaAdapter extends ProviderAdapter {
  readonly tts?: CartesiaTtsProvider;
  /** Closes the warm TTS WebSocket (calls running keep their sockets, closed when they end). */
  close(): Promise<void>;
}

/**
 * The adapter of one Cartesia provider (PROTOCOLS.md section 1): `tts` (Sonic, over
 * `/tts/bytes`, `/tts/sse` or `/tts/websocket`; see createCartesiaTts) and `stt` (Ink, over
 * `/stt/websocket`; see createCartesiaStt), each present only when its option is. HTTP goes
 * through `attempt.transport`; WebSockets through `attempt.webSocket`, else `options.webSocket`,
 * else a transport made on first use. The adapter never retries, falls back, converts audio or
 * keeps scores. Throws ConfigError when `baseUrl` is not an http(s) URL or holds credentials.
 */
export function createCartesiaAdapter(options: CartesiaAdapterOptions): CartesiaAdapter {
  const endpoint = createCartesiaEndpoint(options);
  const clock = options.clock ?? systemClock;
  const transportOf = socketTransportPicker(options.webSocket, options.clock);
  const pool = new TtsSocketPool(
    endpoint,
    options.tts?.keepWarmMs ?? CARTESIA_DEFAULT_KEEP_WARM_MS,
    clock,
    transportOf,
  );
  return {
    name: options.name,
    ...(options.tts ? { tts: createCartesiaTts(endpoint, options.tts, pool, clock) } : {}),
    ...(options.stt ? { stt: createCartesiaStt(endpoint, options.stt, transportOf, clock) } : {}),
    async close() {
      pool.close();
    },
  };
}
