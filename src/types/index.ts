export type { AudioChunk, AudioEncoding, AudioFormat } from './audio.js';
export type {
  ChatEvent,
  ChatMessage,
  ChatTool,
  ChatUsage,
  FinishReason,
  PartialToolCall,
  ToolCall,
} from './chat.js';
export type { CallOptions, ChatRequest, SttRequest, TtsRequest } from './requests.js';
export type { Attempt, AttemptOutcome, Capability, RoutedStream, RouteResult } from './route-result.js';
export type { TranscriptEvent, TranscriptWord } from './transcript.js';
