import type { Clock } from '../../internal/clock.js';
import type { ProviderAdapter } from '../types.js';
import { createSageMakerAdapter } from './adapter.js';
import type { ResolvedSageMakerConfig } from './config.js';
import type { SageMakerAdapterOptions } from './options.js';

/**
 * The adapter options of a resolved `sagemaker` provider config: only wire settings (region,
 * endpoint, credentials, codecs, sample rates, stream modes); the logical voice and model
 * maps stay with the router. Extra options (a custom stream client, a clock) go in `extra`.
 */
export function sageMakerOptionsFromConfig(
  name: string,
  config: ResolvedSageMakerConfig,
  extra: Pick<SageMakerAdapterOptions, 'streamClient' | 'clock'> = {},
): SageMakerAdapterOptions {
  const options: SageMakerAdapterOptions = {
    name,
    region: config.region,
    endpointName: config.endpointName,
    ...extra,
  };
  if (config.targetVariant !== undefined) options.targetVariant = config.targetVariant;
  if (config.inferenceComponent !== undefined) options.inferenceComponent = config.inferenceComponent;
  if (config.endpointUrl !== undefined) options.endpointUrl = config.endpointUrl;
  if (config.sessionId !== undefined) options.sessionId = config.sessionId;
  if (config.customAttributes !== undefined) options.customAttributes = config.customAttributes;
  if (config.credentials) {
    const { accessKeyId, secretAccessKey, sessionToken } = config.credentials;
    options.credentials = { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
  }
  if (config.chat) options.chat = { payload: config.chat.payload };
  if (config.tts) {
    options.tts = {
      payload: config.tts.payload,
      sampleRate: config.tts.sampleRate,
      stream: config.tts.stream,
    };
  }
  if (config.stt) {
    options.stt = {
      payload: config.stt.payload,
      sampleRate: config.stt.sampleRate,
      stream: config.stt.stream,
    };
  }
  return options;
}

/**
 * The adapter of a resolved `sagemaker` provider config (see `createSageMakerAdapter`); `clock`
 * (the router's) runs its deadlines (default the system clock).
 * @throws ConfigError when a payload names no registered codec.
 */
export function sageMakerAdapterFromConfig(
  name: string,
  config: ResolvedSageMakerConfig,
  clock?: Clock,
): ProviderAdapter {
  return createSageMakerAdapter(sageMakerOptionsFromConfig(name, config, clock ? { clock } : {}));
}
