import type { AudioChunk, AudioFormat } from '../types/audio.js';
import type { ChatMessage, ChatTool, ToolCall } from '../types/chat.js';
import type { RouteResult } from '../types/route-result.js';
import type { TranscriptEvent } from '../types/transcript.js';

/** One voice turn: the caller's audio in, the reply's audio out. See {@link voiceTurn}. */
export interface VoiceTurnRequest {
  /**
   * The caller's audio for this turn (raw bytes in `format`, or AudioChunks), as for stt(). It
   * may stay open (a live microphone): the turn stops reading it at the STT provider's endpoint
   * (a final with `endOfSpeech`), without returning its iterator; {@link VoiceTurn.remainingAudio}
   * goes on from there. Otherwise the turn's speech ends when it ends.
   */
  audio: AsyncIterable<Uint8Array | AudioChunk>;
  /** Format of `audio`. */
  format: AudioFormat;
  /** Chat history; the final transcript is appended as the user's message. */
  messages: ChatMessage[];
  /** Logical chat model (mapped per provider in the config). */
  model: string;
  /**
   * Tools the model may call, as chat()'s `tools` (checked the same way, `tools.N...` in a
   * RequestError). Its calls are not spoken or run: they come back in `result.toolCalls`.
   * Default: none (a model offered no tools makes no tool calls).
   */
  tools?: ChatTool[] | undefined;
  /**
   * Most tokens the reply may have, a whole number above 0: the chat stage's `maxTokens`, checked
   * as chat() checks it (otherwise a RequestError naming `maxTokens`, before any provider is
   * contacted) and sent as each provider takes it (OpenAI `max_completion_tokens`,
   * OpenAI-compatible servers `max_tokens`, Anthropic `max_tokens`, TGI `max_new_tokens`). It caps
   * how long the spoken reply can be; a reply the limit cuts is spoken as far as it got, an
   * unfinished last sentence included. Default: the provider's (Anthropic: the provider config's
   * `chat.maxTokens`, 1024).
   */
  maxTokens?: number | undefined;
  /**
   * Sampling temperature of the reply, 0 to 2: the chat stage's `temperature`, checked as chat()
   * checks it (otherwise a RequestError naming `temperature`, before any provider is contacted).
   * Default: the provider's.
   */
  temperature?: number | undefined;
  /** Logical voice (mapped per provider in the config). */
  voice: string;
  /** Format of the reply's audio. Default: PCM s16le, 24 000 Hz, mono. */
  output?: AudioFormat | undefined;
  /** Route names per stage. Default: `'stt'`, `'chat'`, `'tts'`. */
  routes?:
    | {
        /** Route of the speech-to-text stage. Default: `'stt'`. */
        stt?: string | undefined;
        /** Route of the chat stage. Default: `'chat'`. */
        chat?: string | undefined;
        /** Route of the text-to-speech stage. Default: `'tts'`. */
        tts?: string | undefined;
      }
    | undefined;
  /**
   * Language of the turn: a BCP 47 tag of a registered language (e.g. `'en'`, `'en-US'`), given to
   * both the STT stage (the language heard) and the TTS stage (the language spoken, and the one
   * its sentences are split in), or Deepgram's `'multi'` (recognize whatever is spoken), given to
   * the STT stage only, since it names no language to speak in. Checked as stt() and tts() check
   * it: anything else is a RequestError on `language`, before any provider is contacted. Default:
   * each provider section's configured `language`, else the provider's own (OpenAI detects it).
   */
  language?: string | undefined;
  /**
   * Speaking rate of the reply, a multiplier from 0.25 to 4 (1 is normal): the TTS stage's
   * `speed`, checked as tts() checks it (otherwise a RequestError naming `speed`, before any
   * provider is contacted) and sent as tts() sends it: as given to OpenAI, OpenAI-compatible
   * servers and Deepgram (`speed`), clamped where a provider takes less: Cartesia 0.6 to 1.5
   * (`generation_config.speed`), ElevenLabs 0.7 to 1.2 (`voice_settings.speed`). Default: the
   * provider's (ElevenLabs: the provider config's `voiceSettings.speed`, else the voice's).
   */
  speed?: number | undefined;
  /**
   * Partial transcripts from the STT stage as `transcript` events before the finals (live
   * captions; a sign the user is talking), as `stt({ interim })` gives them: providers send them
   * only when asked. The reply still starts from the finals. A non-boolean is a RequestError
   * naming `interim`. Default: false (finals only).
   */
  interim?: boolean | undefined;
  /**
   * Time budget from end of speech to first audio, in ms. The chat and TTS stages' first-chunk
   * deadlines (and hedge delays, on hedged routes) are tightened to what the budget leaves
   * (half of it after the later stages' measured time, at least 50 ms), keeping room for one
   * fallback. Only attempts with a fallback behind them are shortened: a stage's last
   * candidate keeps at least its route's own deadline, so a late answer still comes.
   * Default: none (the routes' own).
   */
  budgetMs?: number | undefined;
  /** Barge-in: aborting it cancels all three stages; the turn then throws AbortError. */
  signal?: AbortSignal | undefined;
}

/** An event of a voice turn, in the order it happened. */
export type TurnEvent =
  | {
      /** A transcript update of the caller's speech (partials only with `interim: true`). */
      type: 'transcript';
      /** The transcript event, as `router.stt()` yields it. */
      event: TranscriptEvent;
    }
  | {
      /** A piece of the reply's text, as the chat stage streams it. */
      type: 'reply-delta';
      /** The next characters of the reply. */
      text: string;
    }
  | {
      /** A chunk of the spoken reply. */
      type: 'audio';
      /** The audio, in the turn's TTS format, as `router.tts()` yields it. */
      chunk: AudioChunk;
    };

/** When each step of a turn happened, in ms from the voiceTurn() call (performance.now() based). */
export interface TurnTimeline {
  /**
   * End of speech: the STT provider's endpoint came (the final with `endOfSpeech: true`) or the
   * caller's audio ended, whichever was first (the end of the STT stage when neither was seen).
   * The budget and {@link TurnTimeline.ownMs} run from here.
   */
  endOfSpeechMs: number;
  /** The last final transcript of the turn arrived (at the endpoint: the final that closed the utterance). */
  finalTranscriptMs: number;
  /** The first reply token arrived (absent for an empty transcript, and for a reply of tool calls only). */
  firstTokenMs?: number;
  /**
   * The first clause of the reply existed: the TTS provider had enough text to speak (absent for an
   * empty transcript, and for a reply of tool calls only). Text with nothing to speak ("...", a
   * code fence line) is no clause; words held for the next token and given to the provider once
   * the LLM paused count from then.
   */
  firstClauseMs?: number;
  /**
   * The first audio of the reply arrived (absent when nothing was spoken: an empty transcript, a
   * reply of tool calls only, or one with no letter or digit to speak).
   */
  firstAudioMs?: number;
  /**
   * Time on the critical path (end of speech -> first audio) spent in voxroute rather than
   * waiting on a provider: the path minus the STT's wait for its final, the chat's time to first
   * token (every attempt of it) and the TTS's time from its start at the first token to first
   * audio (every attempt of it, the LLM's time from first token to first clause included),
   * each as measured around the provider call. 0 when nothing was spoken (no `firstAudioMs`).
   */
  ownMs: number;
}

/** What a voice turn did. */
export interface TurnResult {
  /** The final transcript ('' if nothing was said). */
  transcript: string;
  /** The reply text as streamed. */
  reply: string;
  /**
   * The tool calls the model made, in order, from the request's `tools` (not spoken: a turn does
   * not run tools). An app whose model answered with a tool call and no text gets an empty
   * `reply` and these: run the tool, add the user's transcript, the assistant's call and the
   * tool's result to `messages`, and have the model answer it (router.chat() with those messages,
   * its text streamed into router.tts()); the next voiceTurn() starts from new speech. Empty when
   * none (and for an empty transcript).
   */
  toolCalls: ToolCall[];
  /**
   * Each stage's route result; chat and tts are absent for an empty transcript, tts also for a
   * reply of tool calls only (TTS starts at the reply's first text).
   */
  stages: {
    /** What the STT call did. */
    stt: RouteResult;
    /** What the chat call did; undefined for an empty transcript. */
    chat?: RouteResult;
    /** What the TTS call did; undefined for an empty transcript and for a reply of tool calls only. */
    tts?: RouteResult;
  };
  /** When each step of the turn happened, in ms from the voiceTurn() call. */
  timeline: TurnTimeline;
}

/**
 * A running voice turn: iterate it for its events. `result` resolves when the iteration ends
 * normally and rejects with the error the iterator threw (AbortError after a barge-in): it
 * settles once the turn is read to its end (or ended early). Awaiting `result` does not run
 * the turn: awaited before the turn is iterated, it rejects with AbortError when the request's
 * signal aborts or the router is closed, and otherwise waits for the iteration.
 */
export interface VoiceTurn extends AsyncIterable<TurnEvent> {
  /**
   * What the turn did; resolves when the iteration ends normally, rejects with the iterator's error
   * otherwise (after an abort of the request's signal: at the abort, even while the caller's loop
   * is busy with an event, with the AbortError the iterator then throws).
   */
  readonly result: Promise<TurnResult>;
  /**
   * The caller's audio this turn did not consume, to pass as the next turn's `audio` so that a
   * microphone kept open loses nothing. Iterating it waits until the turn stopped reading
   * `request.audio`; then, after the STT provider's endpoint, it yields the chunk whose read was
   * in flight at the endpoint (if any) and goes on with `request.audio`'s iterator (leaving the
   * loop early returns that iterator). It yields all of `request.audio` when the turn never read
   * it (a malformed request, an unknown route), and nothing when the audio ended within the turn
   * or the turn ended before its endpoint (barge-in, a failure: `request.audio`'s iterator was
   * returned then). A turn that is never iterated never stops reading: do not wait on this then.
   * It is read once: a next turn given it as `audio` takes the iterator over from it (no layer
   * per turn), and it then yields nothing.
   */
  readonly remainingAudio: AsyncIterable<Uint8Array | AudioChunk>;
}
