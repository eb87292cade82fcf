import { createHttpTransport } from '../../src/transport/http-transport.js';
import type { HttpTransport, HttpTransportOptions } from '../../src/transport/types.js';

/** The two ways the transport sends: undici (default) and a supplied fetch (here the global one). */
export const modes: { name: string; create: (options?: HttpTransportOptions) => HttpTransport }[] = [
  { name: 'undici', create: (options = {}) => createHttpTransport(options) },
  {
    name: 'fetch',
    create: (options = {}) =>
      createHttpTransport({ ...options, fetch: (input, init) => globalThis.fetch(input, init) }),
  },
];
