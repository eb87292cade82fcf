/**
 * Runs `fn` with V8 capturing no stack frames for the errors made inside it, then restores
 * `Error.stackTraceLimit`. For closing a connection on the abort path (barge-in): undici makes an
 * error there (`InformationalError: aborted`) and Node's stream `destroy()` reads its `stack`
 * at once. Formatting a stack whose frames lie in voxroute's files, the first time in a process
 * with source maps on (`node --enable-source-maps`, tsx, vitest), parses those files' source
 * maps: 100 to 500 ms with the event loop blocked, inside the caller's `abort()`. With no frames
 * there is nothing to map. Errors made here are never shown to a caller (the caller's error is
 * made later, where the call settles), so they lose nothing a user would read.
 *
 * @returns What `fn` returns; rethrows what it throws.
 */
export function withoutStackFrames<T>(fn: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return fn();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
