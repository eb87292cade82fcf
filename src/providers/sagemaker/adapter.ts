import { ConfigError } from '../../errors/index.js';
import { systemClock } from '../../internal/clock.js';
import type { ProviderAdapter } from '../types.js';
import { createSageMakerBidiStt, createSageMakerBidiTts } from './bidi/capabilities.js';
import { credentialSource } from './bidi/credentials.js';
import type { BidiTarget } from './bidi/http2-stream.js';
import { createSageMakerChat } from './chat.js';
import type { SageMakerCodec } from './codec.js';
import { secretHeaders } from './errors.js';
import type { SageMakerAdapterOptions } from './options.js';
import { preloadSageMakerCode } from './preload.js';
import { sageMakerCodec, sageMakerCodecIssues } from './registry.js';
import type { SageMakerTarget } from './response-stream.js';
import { sdkStreamClient } from './sdk-client.js';
import { createSageMakerStt } from './stt.js';
import { createSageMakerTts } from './tts.js';

/**
 * The adapter of one SageMaker endpoint (PROTOCOLS.md section 5): `chat`, `tts` and `stt` exist
 * only when their option is present, each with the payload codec its option names. A TTS or
 * STT option with `stream: 'bidirectional'` uses `InvokeEndpointWithBidirectionalStream` over
 * HTTP/2 (see `runBidiStream`); everything else uses response streams. Response
 * streams go through `options.streamClient`, by default the AWS SDK's
 * `InvokeEndpointWithResponseStreamCommand`. Importing voxroute never loads the AWS SDK: making
 * the adapter starts loading the modules its calls need, without waiting for them
 * (`preloadSageMakerCode`): a call made once they are loaded does not load them inside its
 * first-chunk deadline, and `ready()` says until when a call would still wait for them (a
 * caller's clock for the call can start then). The adapter never retries (`maxAttempts: 1`), falls back, converts
 * audio or keeps scores.
 *
 * @throws ConfigError (path `providers.<name>.<capability>.payload`) when a payload names no
 *   registered codec of that capability, or a capability asks for bidirectional streaming
 *   with a codec that cannot stream its input.
 */
export function createSageMakerAdapter(options: SageMakerAdapterOptions): ProviderAdapter {
  const { name } = options;
  const target: SageMakerTarget = {
    provider: name,
    endpointName: options.endpointName,
    clock: options.clock ?? systemClock,
  };
  if (options.targetVariant !== undefined) target.targetVariant = options.targetVariant;
  if (options.inferenceComponent !== undefined) target.inferenceComponent = options.inferenceComponent;
  if (options.sessionId !== undefined) target.sessionId = options.sessionId;
  if (options.customAttributes !== undefined) target.customAttributes = options.customAttributes;
  const secrets = secretHeaders(options.credentials);
  if (secrets) target.secrets = secrets;

  const client =
    options.streamClient ??
    sdkStreamClient({
      region: options.region,
      ...(options.endpointUrl !== undefined ? { endpointUrl: options.endpointUrl } : {}),
      ...(options.credentials !== undefined ? { credentials: options.credentials } : {}),
      clock: target.clock,
    });

  let bidi: BidiTarget | undefined;
  const bidiTarget = (): BidiTarget => {
    bidi ??= {
      provider: name,
      region: options.region,
      endpointName: options.endpointName,
      credentials: credentialSource(options.region, options.credentials),
      clock: target.clock,
      ...(options.endpointUrl !== undefined ? { endpointUrl: options.endpointUrl } : {}),
      ...(options.targetVariant !== undefined ? { targetVariant: options.targetVariant } : {}),
      ...(secrets ? { secrets } : {}),
    };
    return bidi;
  };

  const adapter: { -readonly [K in keyof ProviderAdapter]: ProviderAdapter[K] } = { name };
  if (options.chat) {
    adapter.chat = createSageMakerChat(client, target, codecFor(name, 'chat', options.chat.payload));
  }
  if (options.tts) {
    const codec = codecFor(name, 'tts', options.tts.payload);
    adapter.tts =
      options.tts.stream === 'bidirectional'
        ? createSageMakerBidiTts(bidiTarget(), codec, options.tts.sampleRate)
        : createSageMakerTts(client, target, codec, options.tts.sampleRate);
  }
  if (options.stt) {
    const codec = codecFor(name, 'stt', options.stt.payload);
    if (options.stt.stream === 'bidirectional') {
      const input = codec.input?.bind(codec);
      if (!input) throw new ConfigError(sageMakerCodecIssues({ stt: options.stt }, ['providers', name]));
      adapter.stt = createSageMakerBidiStt(bidiTarget(), codec, input, options.stt.sampleRate);
    } else {
      adapter.stt = createSageMakerStt(client, target, codec, options.stt.sampleRate);
    }
  }
  // Only the client voxroute made is closed: a supplied streamClient belongs to the caller.
  if (!options.streamClient) adapter.close = () => client.close?.() ?? Promise.resolve();
  // The first call must not load the AWS SDK inside its first-chunk deadline: start now, and
  // tell callers (ready) until when a call would still wait for it.
  adapter.ready = preloadSageMakerCode(options);
  return adapter;
}

/** The codec `payload` of `capability`; ConfigError when none is registered (the config check reports it first). */
function codecFor<C extends SageMakerCodec['capability']>(provider: string, capability: C, payload: string) {
  const codec = sageMakerCodec(capability, payload);
  if (!codec)
    throw new ConfigError(sageMakerCodecIssues({ [capability]: { payload } }, ['providers', provider]));
  return codec;
}
