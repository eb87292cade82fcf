import { loadBidiStream } from './bidi/capabilities.js';
import { loadSignatureV4 } from './bidi/signer.js';
import { loadEventStreamCodec } from './event-stream.js';
import type { SageMakerAdapterOptions } from './options.js';
import { loadSageMakerSdk } from './sdk-client.js';

/**
 * Starts loading, without waiting, the code the calls of an adapter made with `options` will
 * need: the AWS SDK (response streams through the default client; bidirectional streams
 * without static credentials, for the SDK's credential chain) and, for bidirectional streams,
 * the HTTP/2 client, `@smithy/signature-v4` and `@smithy/eventstream-codec`. The AWS SDK alone
 * takes 160-270 ms to load: loaded on the first call, it ran inside that call's first-chunk
 * deadline. Each module is loaded once per process; a failed load is forgotten here, and the
 * call that needs the module loads it again and fails with that error.
 */
export function preloadSageMakerCode(options: SageMakerAdapterOptions): void {
  const bidi = [options.tts, options.stt].some((o) => o?.stream === 'bidirectional');
  const responseStreams =
    options.chat !== undefined ||
    [options.tts, options.stt].some((o) => o !== undefined && o.stream !== 'bidirectional');
  const loads: Promise<unknown>[] = [];
  if ((responseStreams && !options.streamClient) || (bidi && !options.credentials))
    loads.push(loadSageMakerSdk());
  if (bidi) loads.push(loadBidiStream(), loadSignatureV4(), loadEventStreamCodec());
  for (const load of loads) load.catch(() => {});
}
