import type { StreamedText } from '../shared/text-piece.js';
import type { AttemptContext, ProviderAudio, ProviderTtsRequest, TtsProvider } from '../types.js';

/**
 * When one word is heard: `startMs` and `endMs` are ms from the start of the audio of this
 * synthesis (the first byte the adapter yielded). `word` is the text as the provider aligned
 * it (punctuation attached, no surrounding whitespace).
 */
export interface WordTiming {
  word: string;
  startMs: number;
  endMs: number;
}

/**
 * A raw chunk from the ElevenLabs adapter: ProviderAudio plus, on WebSocket chunks that came
 * with alignment data, `words`, the words whose first character is in this chunk (proposed as
 * an optional field of ProviderAudio, so the router can resume after the last word heard).
 */
export interface ElevenLabsAudio extends ProviderAudio {
  words?: WordTiming[];
}

/**
 * A TTS request as the ElevenLabs adapter takes it: ProviderTtsRequest whose `text` may also be
 * an async iterable of text pieces (e.g. LLM tokens), which the WebSocket path sends as they come.
 */
export type ElevenLabsTtsRequest = Omit<ProviderTtsRequest, 'text'> & {
  text: string | StreamedText;
};

/** The ElevenLabs TTS adapter: a TtsProvider that also takes streamed text. */
export interface ElevenLabsTtsProvider extends TtsProvider {
  synthesize(request: ElevenLabsTtsRequest, attempt: AttemptContext): AsyncIterable<ElevenLabsAudio>;
}
