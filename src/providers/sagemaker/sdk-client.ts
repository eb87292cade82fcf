import { Readable } from 'node:stream';
import type { Clock } from '../../internal/clock.js';
import { lazyImport } from '../../internal/lazy.js';
import { withAcceptIdentity } from '../../transport/content-coding.js';
import { connectDeadlineAgents, ON_REUSED_SOCKET } from './connect-deadline-agent.js';
import { boundedErrorBody } from './error-body-deadline.js';
import { guardEventStream } from './event-stream-guard.js';
import type { SageMakerCredentials } from './options.js';
import type { SageMakerStreamClient, SageMakerStreamOutput } from './stream-client.js';

type SdkModule = typeof import('@aws-sdk/client-sagemaker-runtime');

/**
 * Loads `@aws-sdk/client-sagemaker-runtime` with a dynamic `import()`, once per process: the
 * AWS SDK is only loaded once a SageMaker adapter is made (createRouter starts the load without
 * waiting for it, see `preloadSageMakerCode`), so importing voxroute stays fast (the client
 * module alone takes about 160-270 ms to load; see docs/providers.md). A failed load is
 * retried on the next call.
 */
export const loadSageMakerSdk: () => Promise<SdkModule> = lazyImport(
  () => import('@aws-sdk/client-sagemaker-runtime'),
);

/** Settings of {@link sdkStreamClient}. */
export interface SdkStreamClientSettings {
  region: string;
  /** Custom endpoint used verbatim (PROTOCOLS.md 5.6). Omitted: the SDK's regional endpoint. */
  endpointUrl?: string;
  /** Static credentials; omitted: the SDK's default provider chain. */
  credentials?: SageMakerCredentials;
  /** Timers of the connect deadline and the error-body bound. Omitted: the system clock. */
  clock?: Clock;
}

/**
 * The default {@link SageMakerStreamClient}: the AWS SDK's `SageMakerRuntimeClient` sending
 * `InvokeEndpointWithResponseStreamCommand` (PROTOCOLS.md 5.1), with `maxAttempts: 1` (the
 * adapter never retries: the router decides) and the abort signal passed to `send`, which
 * destroys the request (and so the socket) when it fires, also mid-stream. One SDK client is
 * kept per connect deadline (enforced by its HTTP agents, see `connectDeadlineAgents`); each
 * keeps its own keep-alive connections. The SDK is loaded on the first `invoke`. A successful
 * answer's event stream passes `guardEventStream` before the SDK's decoder: a message length
 * out of bounds (over 24 MiB, as on the bidirectional path) fails the stream at once instead of
 * being buffered, and a body that ends inside a message fails it too (errors errors.ts maps to
 * ProtocolErrors). An error status's body is read for at most the error-body deadline
 * (`boundedErrorBody`): one that stalls does not hold the call, and its status still decides.
 * A request reset on a reused keep-alive socket before any answer (a connection the endpoint or
 * its load balancer dropped while idle: nothing reached the model) is sent again, past each such
 * dead pooled socket (at most {@link MAX_DROPPED_SOCKETS}), as the HTTP transport does; a reset
 * on a new connection is the provider's failure. Every request asks for an uncompressed body (`accept-encoding: identity`, as every HTTP
 * request of voxroute does: the SDK decodes no content coding), added before signing.
 */
export function sdkStreamClient(settings: SdkStreamClientSettings): SageMakerStreamClient {
  const clients = new Map<number, Promise<InstanceType<SdkModule['SageMakerRuntimeClient']>>>();
  const clientFor = (connectMs: number) => {
    let client = clients.get(connectMs);
    if (!client) {
      client = loadSageMakerSdk().then((mod) => {
        const made = new mod.SageMakerRuntimeClient({
          region: settings.region,
          maxAttempts: 1,
          ...(settings.endpointUrl !== undefined ? { endpoint: settings.endpointUrl } : {}),
          ...(settings.credentials !== undefined ? { credentials: { ...settings.credentials } } : {}),
          // The connect deadline through our own agents, not the handler's connectionTimeout
          // (which leaves a timer behind after a refused connection when below 2000 ms).
          requestHandler: connectDeadlineAgents(connectMs, settings.clock),
        });
        // Before signing (step `build`): no compressed body, which neither the SDK's event-stream
        // decoder nor its error parser would decode (the SDK sends no Accept-Encoding).
        made.middlewareStack?.add(
          (next) => (args) => {
            const headers = (args.request as { headers?: Record<string, string> } | undefined)?.headers;
            if (headers) withAcceptIdentity(headers);
            return next(args);
          },
          { step: 'build', name: 'voxrouteAcceptIdentity' },
        );
        // Between the HTTP handler and the SDK's deserializer (step `deserialize`, after the
        // deserializer's `normal` priority): a successful answer's event stream is checked
        // for message lengths before the SDK's decoder buffers it, and for a cut message.
        // (A stand-in client without a middleware stack, as tests inject, is left as it is.)
        made.middlewareStack?.add(
          (next) => async (args) => {
            const result = await sentPastDroppedSockets(() => next(args), args.request);
            const response = result.response as { statusCode?: unknown; body?: unknown } | undefined;
            const status = response?.statusCode;
            if (typeof status !== 'number' || response === undefined) return result;
            if (status >= 200 && status < 300) {
              if (isAsyncIterable(response.body)) response.body = guardEventStream(response.body);
            } else if (response.body instanceof Readable) {
              // An error body that stalls must not hold the call: bounded in time.
              response.body = boundedErrorBody(response.body, undefined, undefined, settings.clock);
            }
            return result;
          },
          { step: 'deserialize', priority: 'low', name: 'voxrouteEventStreamLengthGuard' },
        );
        return made;
      });
      client.catch(() => clients.delete(connectMs));
      clients.set(connectMs, client);
    }
    return client;
  };
  return {
    async invoke(input, options): Promise<SageMakerStreamOutput> {
      const [mod, client] = await Promise.all([loadSageMakerSdk(), clientFor(options.connectMs ?? 0)]);
      const command = new mod.InvokeEndpointWithResponseStreamCommand(input);
      const onErrorStatus = options.onErrorStatus;
      if (onErrorStatus !== undefined)
        // This call's own middleware: the status of an error answer, before its body is read.
        // (A stand-in SDK without a middleware stack, as tests inject, is left as it is.)
        command.middlewareStack?.add(
          (next) => async (args) => {
            const result = await next(args);
            const status = (result.response as { statusCode?: unknown } | undefined)?.statusCode;
            if (typeof status === 'number' && (status < 200 || status >= 300)) onErrorStatus(status);
            return result;
          },
          { step: 'deserialize', priority: 'low', name: 'voxrouteErrorStatus' },
        );
      const output = await client.send(command, { abortSignal: options.abortSignal });
      return output;
    },
    async close() {
      // destroy() closes the SDK's request handler and its keep-alive sockets.
      const open = [...clients.values()];
      clients.clear();
      for (const client of await Promise.allSettled(open))
        if (client.status === 'fulfilled') client.value.destroy();
    },
  };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

/** Dead pooled sockets a request is sent past, at most (then the reset is reported). */
const MAX_DROPPED_SOCKETS = 8;

/**
 * `send()`, sent again when it fails with a reset of a reused keep-alive socket (marked by our
 * agents, see ON_REUSED_SOCKET) before any answer, up to {@link MAX_DROPPED_SOCKETS} times; only
 * a body that can be sent again (bytes or text, not a stream of the caller's audio).
 */
async function sentPastDroppedSockets<T>(send: () => Promise<T>, request: unknown): Promise<T> {
  const body = (request as { body?: unknown } | undefined)?.body;
  const replayable = body === undefined || typeof body === 'string' || body instanceof Uint8Array;
  for (let dropped = 0; ; dropped++) {
    try {
      return await send();
    } catch (error) {
      const e = error as Record<PropertyKey, unknown> | null;
      const reset = e?.[ON_REUSED_SOCKET] === true && (e.code === 'ECONNRESET' || e.code === 'EPIPE');
      if (!reset || !replayable || dropped >= MAX_DROPPED_SOCKETS) throw error;
    }
  }
}
