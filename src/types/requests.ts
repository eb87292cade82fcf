import type { AudioChunk, AudioFormat } from './audio.js';
import type { ChatMessage, ChatTool } from './chat.js';

/** Options every routed call takes. */
export interface CallOptions {
  /** Cancels the call: the provider connection is closed at once and the iterator throws AbortError. */
  signal?: AbortSignal | undefined;
  /** Name of the route in the config to use. Default: the capability's name (`'tts'`, `'stt'`, `'chat'`). */
  route?: string | undefined;
  /**
   * Budget of the whole call in ms, all attempts included (overrides the route's
   * `totalTimeoutMs`): when it passes the call ends with TimeoutError phase `total`. Default: the route's.
   */
  deadlineMs?: number | undefined;
  /**
   * First-chunk deadline of the attempts of this call that have a fallback behind them, in
   * ms, overriding the route's `firstChunkTimeoutMs`: when it passes before an attempt's first
   * chunk, the call falls back to the next provider. The route's last candidate keeps at
   * least the route's own deadline (a shorter one here never turns a late answer into no
   * answer); to end the whole call at a time, use `deadlineMs`. Default: the route's.
   */
  firstChunkTimeoutMs?: number | undefined;
  /**
   * Hedge delay of this call in ms, overriding the route's computed one: with no first chunk
   * after this long, the next provider starts beside the first. Applies only on a route with
   * `hedge` configured (its hedge budget still applies). Default: the route's.
   */
  hedgeAfterMs?: number | undefined;
}

/**
 * A text-to-speech request. `text` as an async iterable is streaming input (e.g. LLM tokens).
 * `voice` is a logical voice name mapped per provider in the config. `format` defaults to
 * PCM s16le at 24 000 Hz mono; the audio reaches the caller in this format whichever provider served.
 */
export interface TtsRequest extends CallOptions {
  /**
   * The text: a string of at most 100,000 characters (UTF-16 code units; a longer one is a
   * `RequestError` with `field: 'text'`, thrown before any provider is contacted), spoken
   * sentence by sentence (a sentence over 1,000 characters is cut at a clause end or word
   * boundary); or streamed text of any length, spoken clause by clause (a chunk with no clause
   * or sentence end is cut after 200 characters). See docs/routing.md.
   */
  text: string | AsyncIterable<string>;
  /** Logical voice name, a key of the config's voices, mapped to each provider's own voice id. */
  voice: string;
  /**
   * Format of the audio returned. Default: DEFAULT_TTS_FORMAT, `{ encoding: 'pcm_s16le',
   * sampleRate: 24000, channels: 1 }`. Read when the call starts: chunks state a frozen copy of
   * it, so changing this object later does not change the call.
   */
  format?: AudioFormat | undefined;
  /**
   * BCP 47 language tag of a registered language, e.g. `'en'`, `'en-US'` (or Deepgram's `'multi'`).
   * A malformed tag (`'en_US'`) or an unknown language (`'english'`, `'zz'`): RequestError on
   * `language`, before any provider is contacted.
   */
  language?: string | undefined;
  /**
   * Speaking rate multiplier, 0.25 to 4 (outside: RequestError); 1 is normal. Sent as given to
   * OpenAI and OpenAI-compatible servers (OpenAI's own range); clamped where a provider takes
   * less: Cartesia 0.6 to 1.5, ElevenLabs 0.7 to 1.2. Default: the provider's.
   */
  speed?: number | undefined;
}

/**
 * A speech-to-text request: the caller's audio as a stream of raw bytes in `format`, or of
 * AudioChunks whose `format` must be `format` too (a chunk in another format fails the call with
 * a RequestError on `audio` naming both formats; convert it first with `createAudioConverter`).
 * The bytes are raw samples, with no container: read a WAV file with `readWav`.
 * `interim: true` asks for partial transcripts.
 */
export interface SttRequest extends CallOptions {
  /**
   * The caller's audio: raw sample bytes in `format`, or AudioChunks in `format`; the call ends after the
   * iterable ends.
   */
  audio: AsyncIterable<Uint8Array | AudioChunk>;
  /** Encoding and sample rate (Hz) of `audio`. */
  format: AudioFormat;
  /**
   * BCP 47 language tag of a registered language, e.g. `'en'`, `'en-US'` (or Deepgram's `'multi'`).
   * A malformed tag (`'en_US'`) or an unknown language (`'english'`, `'zz'`): RequestError on
   * `language`, before any provider is contacted.
   */
  language?: string | undefined;
  /** Emit partial transcripts as well as finals. Default: false. */
  interim?: boolean | undefined;
}

/** A chat request. `model` is a logical model name mapped per provider in the config. */
export interface ChatRequest extends CallOptions {
  /**
   * The conversation so far, oldest first; non-empty (otherwise RequestError). Each message has
   * only the fields of its role (an unknown one, such as OpenAI's `tool_calls`, is a RequestError
   * at `messages.N.<field>`).
   */
  messages: ChatMessage[];
  /** Logical model name, a key of the config's models, mapped to each provider's own model id. */
  model: string;
  /**
   * Most tokens to generate, a whole number above 0 (otherwise RequestError). Default: the provider's
   * (Anthropic: the provider config's `maxTokens`, 1024). It bounds the whole reply: when a reply
   * cut on one provider is continued on another (route `midStream: 'continue'`), that one is
   * sent this less an estimate of the tokens already delivered (one per 4 ASCII characters,
   * rounded up, plus one per other character), at least 1.
   */
  maxTokens?: number | undefined;
  /** Sampling temperature, 0 to 2 (otherwise RequestError). Default: the provider's. */
  temperature?: number | undefined;
  /** Tools the model may call; their calls come back as `tool-call` events. Default: none. */
  tools?: ChatTool[] | undefined;
}
