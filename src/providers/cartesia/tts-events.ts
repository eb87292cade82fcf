import { ProtocolError } from '../../errors/index.js';
import type { AudioFormat } from '../../types/audio.js';
import { decodeBase64Audio } from '../shared/base64-audio.js';
import type { ProviderAudio } from '../types.js';
import type { TtsEvent } from './api-types.js';
import { cartesiaErrorEvent } from './error-event.js';

/**
 * When a word is spoken in the audio of one synthesis, in ms from the start of that audio
 * (Cartesia sends seconds; PROTOCOLS.md 1.4, COAS `WordTimestamps`).
 */
export interface WordTiming {
  word: string;
  startMs: number;
  endMs: number;
}

/**
 * Audio from the Cartesia adapter: a ProviderAudio plus, when word timestamps arrived since
 * the previous chunk, `words` (proposed as an optional field of ProviderAudio, for resuming a
 * TTS stream on another provider from the first word not fully delivered). Timestamps come
 * as their own messages, after the audio they describe, so the words on a chunk may belong to
 * audio of earlier chunks; `data` is never empty.
 */
export interface CartesiaAudio extends ProviderAudio {
  words?: WordTiming[];
}

/** Seconds -> whole ms (timestamps are sent with sub-ms digits). */
function ms(seconds: number): number {
  return Math.round(seconds * 1000);
}

/** The word timings of Cartesia's parallel arrays (`words`, `start`, `end`, seconds), in ms. */
export function wordTimings(timestamps: { words: string[]; start: number[]; end: number[] }): WordTiming[] {
  const count = Math.min(timestamps.words.length, timestamps.start.length, timestamps.end.length);
  const out: WordTiming[] = [];
  for (let i = 0; i < count; i++) {
    out.push({
      word: timestamps.words[i]!,
      startMs: ms(timestamps.start[i]!),
      endMs: ms(timestamps.end[i]!),
    });
  }
  return out;
}

/** What {@link TtsEventReader.push} made of one event. */
export interface TtsStep {
  /** Audio to yield, if the event carried any. */
  audio?: CartesiaAudio;
  /** True for the `done` event: the synthesis is complete. */
  done: boolean;
}

/**
 * Turns the events of one Cartesia synthesis (`/tts/sse` or one websocket context;
 * PROTOCOLS.md 1.4, 1.5) into audio:
 * - `chunk`: `data` base64-decoded, labelled with the requested raw `format` (a raw container
 *   has no header to read it from); empty chunks give nothing; a chunk without `data` (missing
 *   or null) is malformed: ProtocolError (retryable) naming `data`;
 * - `timestamps`: word timings kept and attached to the next audio chunk;
 * - `done`: the end; `phoneme_timestamps`, `flush_done` and unknown types: nothing;
 * - `error`: throws the transport's ProviderError of the payload (`status_code` decides
 *   `retryable`, `partialOutput` = audio already given).
 */
export class TtsEventReader {
  /** True once audio has been produced. */
  hadOutput = false;
  private words: WordTiming[] = [];

  constructor(
    private readonly provider: string,
    private readonly format: AudioFormat,
  ) {}

  /**
   * The step of one event. Throws ProviderError for an `error` event, ProtocolError for a chunk
   * without `data` or with bad base64.
   */
  push(event: TtsEvent): TtsStep {
    switch (event.type) {
      case 'chunk': {
        // A chunk's audio is its `data` (PROTOCOLS.md 1.4, 1.5): without it, the audio is lost.
        if (typeof event.data !== 'string') {
          throw new ProtocolError('Unexpected TTS chunk at data: missing', {
            provider: this.provider,
            partialOutput: this.hadOutput,
          });
        }
        const data = decodeBase64Audio(event.data, this.provider, this.hadOutput);
        if (data.byteLength === 0) return { done: false };
        this.hadOutput = true;
        const audio: CartesiaAudio = { data, format: this.format };
        if (this.words.length > 0) {
          audio.words = this.words;
          this.words = [];
        }
        return { audio, done: false };
      }
      case 'timestamps':
        if (event.word_timestamps) this.words.push(...wordTimings(event.word_timestamps));
        return { done: false };
      case 'done':
        return { done: true };
      case 'error':
        throw cartesiaErrorEvent(this.provider, event, this.hadOutput);
      default:
        return { done: false };
    }
  }

  /**
   * Word timings that arrived after the last audio chunk: dropped, as every ProviderAudio chunk
   * carries audio. Those words were fully delivered by then, so a resume only loses the
   * narrowing they would give (it restarts from the last word it knows was delivered).
   */
  end(): void {
    this.words = [];
  }
}
