import diagnostics from 'node:diagnostics_channel';

/**
 * Resolves when a client in this process (undici, or the global fetch, which is undici) has the
 * headers of a response (undici's diagnostics channel `undici:request:headers`), and the turn of
 * the event loop that hands them on (fetch's promise) has run. Subscribe before the request is
 * sent: call it first, await it after.
 */
export async function headersReceived(): Promise<void> {
  await new Promise<void>((resolve) => {
    const onHeaders = () => {
      diagnostics.unsubscribe('undici:request:headers', onHeaders);
      resolve();
    };
    diagnostics.subscribe('undici:request:headers', onHeaders);
  });
  await new Promise((resolve) => setImmediate(resolve));
}
