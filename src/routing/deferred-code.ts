/**
 * The code a router loads in the background from `createRouter()`, with one dynamic `import()`
 * (see load-deferred-code.ts), rather than at `import('voxroute')`: every provider kind's
 * adapter builder, the HTTP and WebSocket transports those adapters send through, fleet-shared
 * health and the resampler's worker thread. None of it runs before a router exists, and a call
 * waits for its adapter's code anyway. One module rather than one per part: code the parts share
 * with the package entry would otherwise be cut into more files, and each file the import reads
 * costs it more than its size.
 */
export { ResampleThread } from '../audio/resample-thread.js';
export { FleetHealth } from '../fleet/fleet-health.js';
export * from '../providers/adapters.js';
export { createHttpTransport } from '../transport/http-transport.js';
export { createWebSocketTransport } from '../transport/websocket.js';
