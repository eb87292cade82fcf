import type { AbortSource } from '../internal/abort-link.js';
import type { Deadlines, HttpTransport } from '../transport/types.js';
import type { WebSocketTransport } from '../transport/websocket-types.js';
import type { AudioFormat } from '../types/audio.js';
import type { ChatEvent, ChatMessage, ChatTool } from '../types/chat.js';
import type { TranscriptEvent } from '../types/transcript.js';

/**
 * What the router hands an adapter for one attempt. Adapters never retry, fall back,
 * convert audio to the caller's format or keep scores: the router does that.
 */
export interface AttemptContext {
  /**
   * Aborted when the attempt is abandoned (caller abort, barge-in, deadline, hedge lost). From the
   * router an AbortLink, which makes no AbortSignal unless its `.signal` is read (for a library
   * that takes only a real one); an AbortSignal works too.
   */
  signal: AbortSource;
  /** Deadlines the adapter passes to its transport (connect, headers, idle, total). */
  deadlines: Deadlines;
  /** The HTTP transport to use. */
  transport: HttpTransport;
  /** The WebSocket transport to use (adapters of WebSocket protocols). */
  webSocket?: WebSocketTransport;
  /**
   * Called by the adapter (passed on to the transport as `HttpRequest.onErrorStatus`) when the
   * provider answered an error status whose body is still being read: the attempt's first-chunk
   * deadline then stands down, and the short error-body deadline decides how long the rest may
   * take. From the router; absent elsewhere.
   */
  onErrorStatus?: (status: number) => void;
}

/** A word a provider spoke, in ms from the start of that synthesis (Cartesia, ElevenLabs timestamps). */
export interface WordTiming {
  word: string;
  startMs: number;
  endMs: number;
}

/**
 * Raw audio as a provider sent it: `data` may split a sample; `format` is its real format.
 * `words` carries word timestamps where the provider sends them (they may describe audio of
 * earlier chunks).
 *
 * `clausesDone` (streamed text only, {@link ProviderTtsStreamRequest}): the provider said that
 * the audio of the request's first `clausesDone` clauses (text up to each clause end: a piece
 * with `clauseEnd: true`, or for plain strings the adapter's own rule) is complete, all of it in
 * this item or the ones before (Cartesia: its `flush_done` answer to the flush sent at that
 * clause end). An item that only reports this progress has empty `data`. Counts never go down.
 */
export interface ProviderAudio {
  data: Uint8Array;
  format: AudioFormat;
  words?: WordTiming[];
  clausesDone?: number;
}

/** What a TTS adapter can produce natively. */
export interface TtsCapabilities {
  /** Output formats the provider can produce without conversion, best first. */
  outputFormats: AudioFormat[];
  /** True when the provider takes text as a stream (else the router joins the text first). */
  streamingText: boolean;
  /** True when the provider sends word timestamps. */
  wordTimestamps: boolean;
}

/** A TTS request as an adapter sees it: the provider's own voice and model ids. */
export interface ProviderTtsRequest {
  text: string;
  /** The provider's voice id (mapped from the logical voice by the router). */
  voice: string;
  model?: string;
  /** Format to ask the provider for: one of its `outputFormats`. */
  format: AudioFormat;
  language?: string;
  speed?: number;
}

/**
 * A piece of streamed text as the router forwards it: `text` as it arrived from the caller (an
 * LLM token, or the part of one up to a clause end; may be '' for a bare clause end), and
 * `clauseEnd: true` when the text sent so far, this piece included, ends a clause: the adapter
 * has the provider generate what it holds now (Cartesia: a `flush` message; ElevenLabs:
 * `flush: true`).
 */
export interface TtsTextPiece {
  text: string;
  clauseEnd: boolean;
}

/**
 * A TTS request whose text arrives as a stream, to be sent into one provider request as it
 * arrives (Cartesia: one WebSocket context with `continue: true`; ElevenLabs: the stream-input
 * socket). The router sends {@link TtsTextPiece}s (tokens as they come, clause ends marked);
 * a plain string item is a piece whose clause ends the adapter finds on its own. The iterable
 * ends when the text does. The router sends it only to an adapter whose
 * `capabilities.streamingText` is true.
 */
export interface ProviderTtsStreamRequest extends Omit<ProviderTtsRequest, 'text'> {
  text: AsyncIterable<string | TtsTextPiece>;
}

/** A TTS adapter. */
export interface TtsProvider {
  readonly capabilities: TtsCapabilities;
  /**
   * Streams the audio of `request.text`; ends normally only after the provider's last byte.
   * `request` is a {@link ProviderTtsStreamRequest} only when `capabilities.streamingText`.
   */
  synthesize(
    request: ProviderTtsRequest | ProviderTtsStreamRequest,
    attempt: AttemptContext,
  ): AsyncIterable<ProviderAudio>;
}

/** What an STT adapter accepts. */
export interface SttCapabilities {
  /** Input formats the provider accepts, best first. */
  inputFormats: AudioFormat[];
  /** True when transcripts can arrive while audio still flows. */
  streamingInput: boolean;
}

/** An STT request as an adapter sees it. */
export interface ProviderSttRequest {
  /** Audio bytes in `format` (one of the adapter's `inputFormats`), whole samples. */
  audio: AsyncIterable<Uint8Array>;
  format: AudioFormat;
  model?: string;
  language?: string;
  interim: boolean;
}

/** An STT adapter: events' times are ms from the start of the audio it was given. */
export interface SttProvider {
  readonly capabilities: SttCapabilities;
  transcribe(request: ProviderSttRequest, attempt: AttemptContext): AsyncIterable<TranscriptEvent>;
}

/** A chat request as an adapter sees it: `model` is the provider's own model id. */
export interface ProviderChatRequest {
  messages: ChatMessage[];
  model: string;
  maxTokens?: number;
  temperature?: number;
  tools?: ChatTool[];
}

/** A piece of a tool call as a chat stream sends it (see {@link ChatStreamReport.toolCall}). */
export interface ToolCallFragment {
  /** The call's id, when this piece carries it. */
  id?: string;
  /** The tool's name, when this piece carries it. */
  name?: string;
  /** JSON text to append to the call's arguments (may be cut anywhere). */
  arguments?: string;
}

/**
 * What a chat adapter reports while a reply streams, beside the events it yields. An adapter
 * yields each `tool-call` event only once the call is whole, so a stream that fails inside a
 * call would otherwise leave no trace of it; the adapter reports each piece of a tool call as it
 * reads it, before yielding anything later in the stream. The adapter only describes its
 * stream; what follows from it (whether the reply may continue elsewhere) is the router's.
 */
export interface ChatStreamReport {
  /**
   * A piece of tool call `index` was read; the first piece of an index starts that call.
   * `index` is the call's place in the reply (a number the adapter keeps per call, e.g. the
   * wire's own index; calls are listed in its order). Of `id` and `name`, the first given is
   * kept; `arguments` pieces are joined in order.
   */
  toolCall(index: number, fragment: ToolCallFragment): void;
}

/**
 * A chat adapter: yields text deltas and tool calls in order, then exactly one `finish`.
 * A stream that ends without its end marker throws a ProtocolError (truncated). `report`
 * (optional) hears of tool calls as they stream (see {@link ChatStreamReport}).
 */
export interface ChatProvider {
  /**
   * True when the provider continues a trailing assistant message (without tool calls) as the
   * same reply, streaming only what follows it, rather than answering it with a new reply:
   * Anthropic's prefill, vLLM's `continue_final_message`. Only then may the router hand it a
   * reply cut on another provider (route `midStream: 'continue'`). Absent: false.
   */
  readonly continuesAssistantMessage?: boolean;
  chat(
    request: ProviderChatRequest,
    attempt: AttemptContext,
    report?: ChatStreamReport,
  ): AsyncIterable<ChatEvent>;
}

/** One configured provider: the capabilities it has. */
export interface ProviderAdapter {
  readonly name: string;
  readonly tts?: TtsProvider;
  readonly stt?: SttProvider;
  readonly chat?: ChatProvider;
  /** Closes what the adapter keeps open between calls (warm WebSockets). Called by router.close(). */
  close?(): Promise<void>;
  /**
   * Whether the code the adapter's calls need is loaded (SageMaker: the AWS SDK, 160-270 ms,
   * loading since the adapter was made). `undefined` once it is: every call from then on, so
   * that a loaded adapter costs its callers nothing. Otherwise a promise that resolves when the
   * load has ended; it never rejects (a failed load is retried, and reported, by the call that
   * needs the module). Absent: nothing to load. A call may be started before the load ends;
   * the load then runs inside that call.
   */
  ready?(): Promise<void> | undefined;
}
