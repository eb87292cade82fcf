/**
 * voxroute/testing: wire-accurate mock providers for tests (msw handlers, or a loopback
 * server on a real port), scripted latency and faults, and deterministic audio.
 * See docs/testing.md.
 */

// Anthropic Messages API mock (src/testing/anthropic)
export * from './anthropic/index.js';
// Cartesia mock: /tts/bytes, /tts/sse, /stt, /tts/websocket, /stt/websocket (src/testing/cartesia)
export * from './cartesia/index.js';
// Deepgram mock: /v1/speak (REST) and /v1/listen (WebSocket) (src/testing/deepgram)
export * from './deepgram/index.js';
export type { Delay, ManualDelay } from './delay.js';
export { createManualDelay, realDelay } from './delay.js';
// ElevenLabs mock: /v1/text-to-speech/{voice}[/stream] (HTTP) and /stream-input (WebSocket) (src/testing/elevenlabs)
export * from './elevenlabs/index.js';
export { MOCK_ENV_FALLBACK, mockEnv } from './mock-env.js';
export type { MockProvider } from './mock-provider.js';
// One call: a loopback mock per provider of a router config, and the config pointed at them
export type {
  MockedProviderKind,
  MockOfKind,
  MockOptionsOfKind,
  MockProviders,
  RunningMock,
  StartMockProvidersOptions,
} from './mock-providers.js';
export { MOCK_API_KEY, MOCK_AWS_CREDENTIALS, startMockProviders } from './mock-providers.js';
export type { MockErrorEvent, MockScript } from './mock-script.js';
export { DEFAULT_CHUNK_BYTES } from './mock-script.js';
export type { MockServer, MockServerOptions } from './mock-server.js';
export { startMockServer } from './mock-server.js';
export type { MockSocket, MockUpgrade, MockWebSocketEndpoint } from './mock-websocket.js';
export type { ChatReply, MockChatUsage, MockToolCall } from './openai/chat.js';
export { DEFAULT_CHAT_REPLY } from './openai/chat.js';
export type { OpenAiDialect } from './openai/dialect.js';
export type {
  EndpointScripts,
  OpenAiCompatibleMock,
  OpenAiCompatibleMockOptions,
  OpenAiEndpoint,
  TranscriptContext,
} from './openai/mock.js';
export { createOpenAiCompatibleMock } from './openai/mock.js';
export { DEFAULT_MOCK_MODELS } from './openai/models.js';
export type { OpenAiCompatibleHandlersOptions } from './openai/msw-handlers.js';
export { openAiCompatibleHandlers } from './openai/msw-handlers.js';
export type { MockSpeechOptions } from './openai/speech.js';
export { mockSpeechPcm } from './openai/speech.js';
export { DEFAULT_TRANSCRIPT } from './openai/transcription.js';
export type { CallContext, PerCall } from './per-call.js';
export type { RecordedFile, RecordedFormValue, RecordedRequest, RequestOutcome } from './recorded-request.js';
export type { MockToolArguments } from './reply-checks.js';
// SageMaker Runtime emulator: event streams, HTTP/2 bidirectional streams, msw handlers (src/testing/sagemaker)
export * from './sagemaker/index.js';
export type { SyntheticAudioOptions } from './synthetic-audio.js';
export { syntheticAudio, syntheticWav } from './synthetic-audio.js';
export type { SyntheticVoiceOptions } from './synthetic-voice.js';
export { syntheticVoice, syntheticVoiceBytes } from './synthetic-voice.js';
// WebSocket mocks through msw (src/testing/ws-msw.ts)
export { closeCodeOfStatus, mockWebSocketHandler } from './ws-msw.js';
