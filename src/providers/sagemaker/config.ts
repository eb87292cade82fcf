import type { z } from 'zod';
import {
  httpUrlSchema,
  idMapSchema,
  languageSchema,
  nonEmptyStringSchema,
  sampleRateSchema,
  sectionSchema,
} from '../../config-fields/fields.js';
import type { ResolveSecrets } from '../../config-fields/resolve-secrets.js';
import { secretSchema } from '../../config-fields/secret.js';
import { lazySchema, zod } from '../../internal/zod.js';
import { sageMakerCodecIssues } from './registry.js';

/** Default sample rate in Hz of SageMaker TTS audio when the config gives none. */
export const SAGEMAKER_DEFAULT_TTS_SAMPLE_RATE = 24_000;
/** Default sample rate in Hz of the audio sent to a SageMaker STT endpoint when the config gives none. */
export const SAGEMAKER_DEFAULT_STT_SAMPLE_RATE = 16_000;

/**
 * A payload codec name: a built-in one or one added with `registerSageMakerCodec`. Overloaded so
 * that a field with a default stays optional in `ProviderConfig` (a union return type would make
 * it a required key of type `string | undefined`).
 */
function payloadSchema(builtIn: string): z.ZodString;
function payloadSchema(builtIn: string, fallback: string): z.ZodDefault<z.ZodString>;
function payloadSchema(builtIn: string, fallback?: string): z.ZodString | z.ZodDefault<z.ZodString> {
  const base = zod()
    .string()
    .min(1, 'must not be empty')
    .describe(
      `Payload codec: how the request body is built and the PayloadPart bytes are read. Built in: ${builtIn}; ` +
        'or a name registered with registerSageMakerCodec() before the config is parsed.' +
        (fallback ? ` Default "${fallback}".` : ' Required.'),
    );
  return fallback ? base.default(fallback) : base;
}

const endpointSampleRate = (fallback: number, what: string) =>
  sampleRateSchema(48_000).default(fallback).describe(`${what} Default ${fallback}.`);

const streamModeSchema = () =>
  zod()
    .enum(['response', 'bidirectional'])
    .default('response')
    .describe(
      '"response": one InvokeEndpointWithResponseStream call per request (HTTP/1.1); "bidirectional": ' +
        'InvokeEndpointWithBidirectionalStream over HTTP/2 (input streamed while output flows). Default "response".',
    );

const credentialsSchema = () =>
  sectionSchema(
    "Static AWS credentials used to sign requests (SigV4). Omitted: the AWS SDK's default provider chain (environment, shared config files, SSO, container and instance roles).",
    () => ({
      /** AWS access key id: a string, or { env: "AWS_ACCESS_KEY_ID" }. */
      accessKeyId: secretSchema('AWS access key id: a string, or { env: "AWS_ACCESS_KEY_ID" }.'),
      /** AWS secret access key: a string, or { env: "AWS_SECRET_ACCESS_KEY" }. */
      secretAccessKey: secretSchema('AWS secret access key: a string, or { env: "AWS_SECRET_ACCESS_KEY" }.'),
      /**
       * AWS session token of temporary credentials: a string, or { env: "AWS_SESSION_TOKEN" }. Omitted: none.
       */
      sessionToken: secretSchema(
        'AWS session token of temporary credentials: a string, or { env: "AWS_SESSION_TOKEN" }. Omitted: none.',
      ).optional(),
    }),
  );

const chatSection = () =>
  sectionSchema(
    'Chat through InvokeEndpointWithResponseStream; the codec builds the body and reads the reply.',
    () => ({
      /**
       * Logical model name (what ChatRequest.model says) -> the model id sent in the body, or "default" to
       * send none (the endpoint serves one model).
       */
      models: idMapSchema(
        'Logical model name (what ChatRequest.model says) -> the model id sent in the body, or "default" to send none (the endpoint serves one model).',
      ),
      /**
       * Payload codec: how the request body is built and the PayloadPart bytes are read. Built in:
       * "openai-chat" (vLLM/LMI/TGI Messages API, SSE), "tgi", "jsonlines"; or a name registered
       * with registerSageMakerCodec() before the config is parsed. Default "openai-chat".
       */
      payload: payloadSchema(
        '"openai-chat" (vLLM/LMI/TGI Messages API, SSE), "tgi", "jsonlines"',
        'openai-chat',
      ),
    }),
  );

const ttsSection = () =>
  sectionSchema('Text-to-speech from a SageMaker endpoint (e.g. Cartesia Sonic).', () => ({
    /** Model id the codec sends (e.g. "sonic-3" as Cartesia's model_id). Omitted: not sent. */
    model: nonEmptyStringSchema(
      'Model id the codec sends (e.g. "sonic-3" as Cartesia\'s model_id). Omitted: not sent.',
    ).optional(),
    /** Logical voice name (what TtsRequest.voice says) -> the voice id this endpoint expects. */
    voices: idMapSchema(
      'Logical voice name (what TtsRequest.voice says) -> the voice id this endpoint expects.',
    ),
    /**
     * Payload codec: how the request body is built and the PayloadPart bytes are read. Built in:
     * "cartesia" (JSON messages with base64 audio), "raw-pcm"; or a name registered with
     * registerSageMakerCodec() before the config is parsed. Required.
     */
    payload: payloadSchema('"cartesia" (JSON messages with base64 audio), "raw-pcm"'),
    /**
     * Sample rate in Hz of the PCM s16le mono audio the endpoint produces (asked for in the request). Default
     * 24000.
     */
    sampleRate: endpointSampleRate(
      SAGEMAKER_DEFAULT_TTS_SAMPLE_RATE,
      'Sample rate in Hz of the PCM s16le mono audio the endpoint produces (asked for in the request).',
    ),
    /**
     * "response": one InvokeEndpointWithResponseStream call per request (HTTP/1.1); "bidirectional":
     * InvokeEndpointWithBidirectionalStream over HTTP/2 (input streamed while output flows). Default
     * "response".
     */
    stream: streamModeSchema(),
  }));

const sttSection = () =>
  sectionSchema(
    'Speech-to-text from a SageMaker endpoint: audio in, transcript events streamed back.',
    () => ({
      /** Model id the codec sends. Omitted: not sent. */
      model: nonEmptyStringSchema('Model id the codec sends. Omitted: not sent.').optional(),
      /** Default language of the audio (BCP 47, e.g. "en") when a request gives none. Omitted: auto. */
      language: languageSchema(
        'Default language of the audio (BCP 47, e.g. "en") when a request gives none. Omitted: auto.',
        { multilingual: true },
      ).optional(),
      /**
       * Payload codec: how the request body is built and the PayloadPart bytes are read. Built in:
       * "wav" (one utterance as a WAV file), "raw-pcm" (raw PCM s16le); or a name registered with
       * registerSageMakerCodec() before the config is parsed. Required.
       */
      payload: payloadSchema('"wav" (one utterance as a WAV file), "raw-pcm" (raw PCM s16le)'),
      /**
       * Sample rate in Hz of the PCM s16le mono audio sent to the endpoint (the router converts to it).
       * Default 16000.
       */
      sampleRate: endpointSampleRate(
        SAGEMAKER_DEFAULT_STT_SAMPLE_RATE,
        'Sample rate in Hz of the PCM s16le mono audio sent to the endpoint (the router converts to it).',
      ),
      /**
       * "response": one InvokeEndpointWithResponseStream call per request (HTTP/1.1); "bidirectional":
       * InvokeEndpointWithBidirectionalStream over HTTP/2 (input streamed while output flows). Default
       * "response".
       */
      stream: streamModeSchema(),
    }),
  );

/**
 * Reports a payload no codec is registered for and a bidirectional stt stream whose codec
 * cannot stream audio in, at `providers.<name>.<capability>.payload` / `.stt.stream` (paths
 * relative to the provider).
 */
function checkCodecs(provider: Record<string, unknown>, ctx: z.RefinementCtx): void {
  for (const issue of sageMakerCodecIssues(provider, [])) ctx.addIssue({ code: 'custom', ...issue });
}

/**
 * Schema of a provider of kind `sagemaker` (built on first call): an Amazon SageMaker AI
 * real-time endpoint called through the SageMaker Runtime API (PROTOCOLS.md section 5).
 * `region` and `endpointName` are required; credentials default to the AWS SDK's provider chain.
 */
export const sagemakerProviderSchema = lazySchema((z) =>
  z
    .strictObject({
      /** An Amazon SageMaker AI real-time endpoint. */
      kind: z.literal('sagemaker').describe('An Amazon SageMaker AI real-time endpoint.'),
      /** AWS region of the endpoint, e.g. "us-east-1". Required (also for SigV4 with endpointUrl). */
      region: z
        .string()
        .regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, 'must be an AWS region such as "us-east-1"')
        .describe(
          'AWS region of the endpoint, e.g. "us-east-1". Required (also for SigV4 with endpointUrl).',
        ),
      /** Name of the SageMaker endpoint, as given to CreateEndpoint. Required. */
      endpointName: z
        .string()
        .regex(
          /^[a-zA-Z0-9](-*[a-zA-Z0-9])*$/,
          'must be a SageMaker endpoint name (letters, digits, hyphens)',
        )
        .max(63, 'must be at most 63 characters')
        .describe('Name of the SageMaker endpoint, as given to CreateEndpoint. Required.'),
      /** Production variant to invoke (X-Amzn-SageMaker-Target-Variant). Omitted: by variant weights. */
      targetVariant: z
        .string()
        .min(1)
        .optional()
        .describe(
          'Production variant to invoke (X-Amzn-SageMaker-Target-Variant). Omitted: by variant weights.',
        ),
      /** Inference component to invoke (X-Amzn-SageMaker-Inference-Component). Omitted: none. */
      inferenceComponent: z
        .string()
        .min(1)
        .optional()
        .describe('Inference component to invoke (X-Amzn-SageMaker-Inference-Component). Omitted: none.'),
      /**
       * Custom SageMaker Runtime endpoint used verbatim, e.g. a VPC endpoint or the loopback emulator of
       * voxroute/testing. Omitted: https://runtime.sagemaker.<region>.amazonaws.com (port 8443 for
       * bidirectional streams).
       */
      endpointUrl: httpUrlSchema(
        'Custom SageMaker Runtime endpoint used verbatim, e.g. a VPC endpoint or the loopback emulator of voxroute/testing. Omitted: https://runtime.sagemaker.<region>.amazonaws.com (port 8443 for bidirectional streams).',
      ).optional(),
      /**
       * Static AWS credentials (`accessKeyId`, `secretAccessKey`, optional `sessionToken`; each a
       * string or `{ env: 'NAME' }`) used to sign requests (SigV4). Omitted: the AWS SDK's default
       * provider chain (environment, shared config files, SSO, container and instance roles).
       */
      credentials: credentialsSchema().optional(),
      /**
       * ID of a stateful session (X-Amzn-SageMaker-Session-Id), opened beforehand with InvokeEndpoint and
       * SessionId "NEW_SESSION". Omitted: stateless.
       */
      sessionId: z
        .string()
        .min(1)
        .optional()
        .describe(
          'ID of a stateful session (X-Amzn-SageMaker-Session-Id), opened beforehand with InvokeEndpoint and SessionId "NEW_SESSION". Omitted: stateless.',
        ),
      /** Opaque value forwarded to the container (X-Amzn-SageMaker-Custom-Attributes). Omitted: none. */
      customAttributes: z
        .string()
        .max(1024, 'must be at most 1024 characters')
        .regex(/^[\x20-\x7e]*$/, 'must be visible US-ASCII')
        .optional()
        .describe(
          'Opaque value forwarded to the container (X-Amzn-SageMaker-Custom-Attributes). Omitted: none.',
        ),
      /**
       * Chat through InvokeEndpointWithResponseStream; the payload codec builds the body and reads the reply.
       * Omitted: this provider serves no chat, and no chat route may name it.
       */
      chat: chatSection().optional(),
      /**
       * Text-to-speech from the endpoint (e.g. Cartesia Sonic on SageMaker), through its payload codec.
       * Omitted: this provider serves no text-to-speech, and no tts route may name it.
       */
      tts: ttsSection().optional(),
      /**
       * Speech-to-text from the endpoint: audio in, transcript events streamed back, through its payload
       * codec. Omitted: this provider serves no speech-to-text, and no stt route may name it.
       */
      stt: sttSection().optional(),
    })
    .superRefine(checkCodecs, { when: () => true })
    .describe(
      'An Amazon SageMaker AI endpoint (response streaming, or bidirectional streaming over HTTP/2).',
    ),
);

/**
 * A provider of kind `sagemaker` after parsing: defaults applied and every secret read (a plain
 * string).
 */
export type ResolvedSageMakerConfig = ResolveSecrets<z.output<ReturnType<typeof sagemakerProviderSchema>>>;
