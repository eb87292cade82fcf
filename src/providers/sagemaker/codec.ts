import type { AudioFormat } from '../../types/audio.js';
import type { ChatEvent } from '../../types/chat.js';
import type { TranscriptEvent } from '../../types/transcript.js';
import type {
  ChatStreamReport,
  ProviderAudio,
  ProviderChatRequest,
  ProviderSttRequest,
  ProviderTtsRequest,
  TtsCapabilities,
} from '../types.js';

/**
 * What a codec puts on the wire for one invocation: the request body (the container's own
 * payload, sent verbatim as the HTTP body) and its MIME types. `contentType` goes in
 * `Content-Type`; `accept` in `X-Amzn-SageMaker-Accept` (SageMaker Runtime API reference; aws-sdk-js-v3).
 */
export interface SageMakerInvocation {
  /** The request body, sent verbatim: bytes, or a string sent as UTF-8. */
  body: Uint8Array | string;
  /** e.g. `'application/json'`, `'audio/wav'`. */
  contentType: string;
  /** e.g. `'text/event-stream'`. Omitted: no `X-Amzn-SageMaker-Accept`. */
  accept?: string;
}

/**
 * One input event of a bidirectional stream: a `PayloadPart` (SageMaker Runtime API reference, `RequestPayloadPart`):
 * `dataType` `'UTF8'` or `'BINARY'`, `completionState` `'PARTIAL'` or `'COMPLETE'`.
 */
export interface SageMakerInputPart {
  /** The part's payload bytes (may be empty, e.g. a closing `COMPLETE` part). */
  bytes: Uint8Array;
  /** The part's `DataType` header: `'UTF8'` for text, `'BINARY'` for bytes. Omitted: no header sent. */
  dataType?: 'UTF8' | 'BINARY';
  /**
   * The part's `CompletionState` header: `'PARTIAL'` while more of the input follows,
   * `'COMPLETE'` on the last part. Omitted: no header sent.
   */
  completionState?: 'PARTIAL' | 'COMPLETE';
}

/**
 * What every codec call receives. `request` is the adapter's request (provider-side ids);
 * `sampleRate` the configured rate in Hz (TTS output, STT input); `provider` names the
 * provider in errors.
 */
export interface CodecCall<R> {
  /** Name of the provider in the config, for error messages. */
  provider: string;
  /** The request with provider-side ids (configured model or voice id, format asked for). */
  request: R;
  /** The configured sample rate, in Hz: of the TTS output, or of the STT input. */
  sampleRate: number;
}

/**
 * What a chat codec call receives: a {@link CodecCall} and, when the router listens, `report`,
 * to be told each piece of a tool call as `decode` reads it (see {@link ChatStreamReport}): a
 * codec of a format with tool calls should, so that a reply cut inside a tool call is never
 * continued on another provider as plain text.
 */
export interface ChatCodecCall extends CodecCall<ProviderChatRequest> {
  /** Told each piece of a tool call as it is decoded (`report.toolCall(index, { id, name, arguments })`); absent: nobody listens. */
  report?: ChatStreamReport;
}

/**
 * A chat payload codec.
 * - `encode(call)`: the invocation for one chat request (`request.model` is the configured id,
 *   or `'default'` when the endpoint serves one model and the body should name none).
 * - `decode(parts, call)`: the chat events read from the PayloadPart bytes (in order; parts
 *   may split or join messages anywhere, even inside a UTF-8 character): text deltas and tool
 *   calls, then exactly one `finish`. Throws ProtocolError for malformed or truncated
 *   payloads and ProviderError for an error the container reports inside the stream. The
 *   adapter sets `partialOutput` on whatever it throws.
 */
export interface SageMakerChatCodec {
  /** Marks a chat codec. */
  readonly capability: 'chat';
  /**
   * The invocation for one chat request (`call.request.model` is the configured id, or
   * `'default'` when the endpoint serves one model and the body should name none).
   */
  encode(call: CodecCall<ProviderChatRequest>): SageMakerInvocation;
  /**
   * The chat events read from the PayloadPart bytes, in order: text deltas and tool calls, then
   * exactly one `finish`. Parts may split messages anywhere, even inside a UTF-8 character.
   * Throws ProtocolError on a malformed or truncated payload, ProviderError on an error the
   * container reports in the stream.
   */
  decode(parts: AsyncIterable<Uint8Array>, call: ChatCodecCall): AsyncIterable<ChatEvent>;
}

/**
 * A TTS payload codec.
 * - `outputFormats(sampleRate)`: the formats the container produces for the configured rate,
 *   best first; the router asks for one of them as `request.format`.
 * - `encode(call)`: the invocation for `call.request` (text, provider voice id, format).
 * - `decode(parts, call)`: the audio, each chunk labelled with its real format (chunks may
 *   split a sample: the router re-frames). Ends only after the container's last byte (or its
 *   end message). Errors as for chat.
 * - `input(call)` (optional, bidirectional streams): the input events for the request;
 *   omitted: the `encode()` body as one `COMPLETE` part.
 */
export interface SageMakerTtsCodec {
  /** Marks a TTS codec. */
  readonly capability: 'tts';
  /**
   * The formats the container produces at `sampleRate` (Hz), best first; the request asks for one of them.
   */
  outputFormats(sampleRate: number): AudioFormat[];
  /** The invocation for `call.request` (text, provider voice id, format). */
  encode(call: CodecCall<ProviderTtsRequest>): SageMakerInvocation;
  /**
   * The audio read from the PayloadPart bytes, each chunk labelled with its real format (a chunk
   * may split a sample). Ends only after the container's last byte or end message. Throws
   * ProtocolError on a malformed or truncated payload, ProviderError on an error the container
   * reports in the stream.
   */
  decode(parts: AsyncIterable<Uint8Array>, call: CodecCall<ProviderTtsRequest>): AsyncIterable<ProviderAudio>;
  /**
   * The input events of a bidirectional stream for the request. Omitted: the `encode()` body
   * is sent as one `COMPLETE` part.
   */
  input?(call: CodecCall<ProviderTtsRequest>): AsyncIterable<SageMakerInputPart>;
}

/** What an STT decoder also receives: the length of the audio sent, in ms (0 while it streams). */
export interface SttCodecCall extends CodecCall<ProviderSttRequest> {
  /** Length of the audio sent, in ms; 0 while the audio still streams in. */
  audioMs: number;
}

/**
 * An STT payload codec.
 * - `inputFormats(sampleRate)`: formats the container accepts, best first (the router
 *   converts the caller's audio to one of them).
 * - `encode(call, audio)`: the invocation for one whole utterance (`audio`: every byte of
 *   the caller's audio in `call.request.format`).
 * - `decode(parts, call)`: partial (when `call.request.interim`) and final transcripts, times
 *   in ms from the start of the audio; ends after the last final.
 * - `input(call)` (optional, bidirectional streams): the input events built from
 *   `call.request.audio` as it arrives; omitted: the codec cannot stream audio in.
 */
export interface SageMakerSttCodec {
  /** Marks an STT codec. */
  readonly capability: 'stt';
  /**
   * The formats the container accepts at `sampleRate` (Hz), best first; the caller's audio is converted to
   * one.
   */
  inputFormats(sampleRate: number): AudioFormat[];
  /** The invocation for one whole utterance; `audio` is every byte of it in `call.request.format`. */
  encode(call: SttCodecCall, audio: Uint8Array): SageMakerInvocation;
  /**
   * Partial (when `call.request.interim`) and final transcripts, times in ms from the start of
   * the audio; ends after the last final. Throws ProtocolError on a malformed or truncated
   * payload, ProviderError on an error the container reports in the stream.
   */
  decode(parts: AsyncIterable<Uint8Array>, call: SttCodecCall): AsyncIterable<TranscriptEvent>;
  /**
   * The input events of a bidirectional stream, built from `call.request.audio` as it arrives.
   * Omitted: the codec cannot stream audio in (each utterance goes whole through `encode()`).
   */
  input?(call: SttCodecCall): AsyncIterable<SageMakerInputPart>;
}

/** Any SageMaker payload codec; `capability` says which. */
export type SageMakerCodec = SageMakerChatCodec | SageMakerTtsCodec | SageMakerSttCodec;

/** The codec type of a capability. */
export type SageMakerCodecOf<C extends SageMakerCodec['capability']> = Extract<
  SageMakerCodec,
  { capability: C }
>;

/**
 * What a SageMaker TTS endpoint offers, over either stream mode: the codec's `outputFormats` at
 * `sampleRate` Hz, no streaming text, no word timestamps.
 */
export function ttsCapabilities(codec: SageMakerTtsCodec, sampleRate: number): TtsCapabilities {
  return { outputFormats: codec.outputFormats(sampleRate), streamingText: false, wordTimestamps: false };
}

/** Whether decoded TTS audio counts as output (for `partialOutput`): it holds at least one byte. */
export function hasAudio(audio: ProviderAudio): boolean {
  return audio.data.byteLength > 0;
}
