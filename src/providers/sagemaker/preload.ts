import { loadBidiStream } from './bidi/capabilities.js';
import { loadSignatureV4 } from './bidi/signer.js';
import { loadEventStreamCodec } from './event-stream.js';
import type { SageMakerAdapterOptions } from './options.js';
import { loadSageMakerSdk } from './sdk-client.js';

/**
 * Starts loading, without waiting, the code the calls of an adapter made with `options` will
 * need: the AWS SDK (response streams through the default client; bidirectional streams
 * without static credentials, for the SDK's credential chain) and, for bidirectional streams,
 * node:http2, `@smithy/signature-v4` and `@smithy/eventstream-codec`. The AWS SDK alone
 * takes 160-270 ms to load: loaded on the first call, it ran inside that call's first-chunk
 * deadline. Each module is loaded once per process; a failed load is forgotten here, and the
 * call that needs the module loads it again and fails with that error.
 *
 * Returns the adapter's `ready` (see `ProviderAdapter.ready`): `undefined` once every load has
 * ended (succeeded or failed), else the promise of that moment.
 */
export function preloadSageMakerCode(options: SageMakerAdapterOptions): () => Promise<void> | undefined {
  const bidi = [options.tts, options.stt].some((o) => o?.stream === 'bidirectional');
  const responseStreams =
    options.chat !== undefined ||
    [options.tts, options.stt].some((o) => o !== undefined && o.stream !== 'bidirectional');
  const loads: Promise<unknown>[] = [];
  if ((responseStreams && !options.streamClient) || (bidi && !options.credentials))
    loads.push(loadSageMakerSdk());
  if (bidi) loads.push(loadBidiStream(), loadSignatureV4(), loadEventStreamCodec());
  if (loads.length === 0) return () => undefined;
  let loading: Promise<void> | undefined = Promise.allSettled(loads).then(() => {
    loading = undefined;
  });
  return () => loading;
}
