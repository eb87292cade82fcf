/**
 * voxroute: route streaming speech-to-text, chat and text-to-speech across voice and LLM
 * providers by measured latency, with fallback. This file is the public surface, nothing else.
 */

// Audio helpers callers need around a voice turn
export {
  type AudioConverter,
  bytesPerSample,
  createAudioConverter,
  durationMs,
  encodeWav,
  preloadResampler,
  readWav,
  SampleFramer,
  silence,
  type WavStream,
  wavHeader,
} from './audio/index.js';
// Config
export {
  type ConfigFactory,
  configJsonSchema,
  defineConfig,
  isResolvedConfig,
  type LoadConfigOptions,
  loadConfig,
  type ParseConfigOptions,
  type ProviderConfig,
  parseConfig,
  type ResolvedConfig,
  type ResolvedProviderConfig,
  type ResolvedRouteConfig,
  type RouteConfig,
  type RouterConfig,
  type SecretInput,
} from './config/index.js';
// Errors
export {
  AbortError,
  AllProvidersFailedError,
  AudioConversionError,
  ConfigError,
  type ConfigIssue,
  MidStreamError,
  ProtocolError,
  ProviderError,
  RequestError,
  TimeoutError,
  type TimeoutErrorOptions,
  type TimeoutPhase,
  type TimeoutSetting,
  VoxrouteError,
} from './errors/index.js';
// Fleet-shared health (config `health`), seen through router.on('fleet') and router.stats().fleet
export type { FleetEvent, FleetState, FleetStats } from './fleet/index.js';
// The voice turn: stt -> chat -> tts in one call, with one time budget
export {
  type TurnEvent,
  type TurnResult,
  type TurnTimeline,
  type VoiceTurn,
  type VoiceTurnRequest,
  voiceTurn,
} from './pipeline/index.js';
// SageMaker payload codecs: register your own container's request/response format
export {
  type ChatCodecCall,
  type CodecCall,
  jsonMessages,
  registerSageMakerCodec,
  renderPrompt,
  type SageMakerChatCodec,
  type SageMakerCodec,
  type SageMakerInputPart,
  type SageMakerInvocation,
  type SageMakerSttCodec,
  type SageMakerTtsCodec,
  type SttCodecCall,
  splitLines,
} from './providers/sagemaker/codec-api.js';
// Circuit-breaker and event types seen through router.on('breaker') and router.stats()
export type {
  BreakerEvent,
  RouterEventBase,
  RouterEventName,
  RouterEvents,
  RouterListener,
} from './routing/events.js';
export type { LatencySnapshot } from './routing/latency-tracker.js';
// Router
export {
  createRouter,
  DEFAULT_TTS_FORMAT,
  type Logger,
  type ProviderStats,
  type Router,
  type RouterOptions,
  type RouterStats,
} from './routing/router.js';
// Metrics through OpenTelemetry (optional peer dependency @opentelemetry/api)
export {
  instrumentRouter,
  METRIC_NAMES,
  type RouterEventSource,
  TTFC_BUCKETS_MS,
} from './telemetry/metrics.js';
// Data shapes
export type {
  Attempt,
  AttemptOutcome,
  AudioChunk,
  AudioEncoding,
  AudioFormat,
  CallOptions,
  Capability,
  ChatEvent,
  ChatMessage,
  ChatRequest,
  ChatTool,
  ChatUsage,
  FinishReason,
  PartialToolCall,
  RoutedStream,
  RouteResult,
  SttRequest,
  ToolCall,
  TranscriptEvent,
  TranscriptWord,
  TtsRequest,
} from './types/index.js';
