import type { AudioFormat } from '../../types/audio.js';
import type { Delay } from '../delay.js';
import { DEFAULT_CHUNK_BYTES } from '../mock-script.js';
import type { MockSocket } from '../mock-websocket.js';
import type { RequestOutcome } from '../recorded-request.js';
import { base64 } from '../sse.js';
import { syntheticAudioSampler } from '../synthetic-audio.js';
import {
  appendWordTimestamps,
  CARTESIA_MOCK_MS_PER_CHARACTER,
  type CartesiaMockSpeech,
  type CartesiaWordTimestamps,
  MOCK_SAMPLE_RATES,
  mockCartesiaAudio,
  mockCartesiaSampleCount,
  slices,
  WIRE_TO_ENCODING,
} from './audio.js';
import { errorEventPayload } from './errors.js';
import type { CartesiaMockScript } from './script.js';
import { ScriptedSocket } from './scripted-socket.js';
import type { CartesiaSocketRecord } from './socket-record.js';

/** What a TTS session needs from the mock. */
export interface TtsSessionContext {
  script: CartesiaMockScript;
  delay: Delay;
  speech: CartesiaMockSpeech;
  record: CartesiaSocketRecord;
  finish: (outcome: Exclude<RequestOutcome, 'pending'>) => void;
}

/** One context of a session. */
interface Context {
  id: string;
  format: AudioFormat;
  timestamps: boolean;
  text: string;
  /** Index of the last whitespace in `text`, -1 when none. */
  lastWhitespace: number;
  /** The audio of `text`, made as the text grows: only the new samples each time. */
  audio: ReturnType<typeof syntheticAudioSampler>;
  /** Bytes of audio already queued. */
  audioQueued: number;
  /** The known words' timestamps so far (see `appendWordTimestamps`). */
  words: CartesiaWordTimestamps;
  /** Where the scan for the next known word starts, in characters of `text`. */
  wordsScanned: number;
  /** Words whose timestamps were queued. */
  stamped: number;
  /** Audio messages sent. */
  chunks: number;
  flushes: number;
  inputEnded: boolean;
  /** `done` or `error` sent: the context takes no more requests. */
  finished: boolean;
  cancelled: boolean;
  /** Late audio of the previous context was queued before this one's. */
  lateSent: boolean;
}

/** True while a context may still send (not cancelled, no `done` or `error` yet). */
const live = (ctx: Context): boolean => !ctx.cancelled && !ctx.finished;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Runs one `/tts/websocket` session of the mock (PROTOCOLS.md 1.5), with the script applied:
 * - a generation request `{context_id, model_id, transcript, voice:{mode:'id',id},
 *   output_format:{container:'raw',encoding,sample_rate}, continue?, flush?, add_timestamps?}`
 *   opens the context or adds its transcript; audio for the text so far is sent at once as
 *   `{"type":"chunk","context_id","data":<base64>,"done":false,"status_code":206,"step_time",
 *   "flush_id"}` messages of `chunkBytes` bytes (see `mockCartesiaAudio`: the pieces of a streamed context
 *   join to the audio of the whole text; each request synthesizes only the audio its
 *   transcript adds, so a token stream costs time linear in its length);
 * - with `add_timestamps`, `{"type":"timestamps","word_timestamps":{words,start,end}}` after
 *   each audio message, for the words whose audio has been sent by then (see
 *   `mockWordTimestamps`); a word is known once whitespace follows it or the input ended;
 * - `flush: true` -> `{"type":"flush_done","flush_done":true,"flush_id":n}` (n counts the
 *   context's flushes from 1); `chunk` and `timestamps` messages carry the `flush_id` of the
 *   flush that closes their text: 1 before the first flush, n + 1 after the n-th (Cartesia's
 *   "context flushing and flush IDs" page; CJS `WebsocketResponse.Chunk.flush_id`);
 * - `continue: false` (or absent) ends the input -> `{"type":"done","done":true,"status_code":200}`;
 * - `{context_id, cancel: true}`: nothing more is sent for that context (no `done`: what
 *   Cartesia does after a cancel is UNCONFIRMED);
 * - a bad request (not JSON, missing or invalid field, unknown encoding or rate) -> an error
 *   message with `status_code` 400 (and the `context_id` when known), which ends the context.
 */
export function runTtsSession(socket: MockSocket, context: TtsSessionContext): void {
  const { script, record, finish, speech } = context;
  const contexts = new Map<string, Context>();
  let previous: Context | undefined;
  const scripted = new ScriptedSocket(socket, script, context.delay, record, finish);
  socket.onClose((code, reason) => {
    record.closeCode = code;
    record.closeReason = reason;
    // A context cancelled or left unfinished by the client counts as work it walked away from.
    const pending = [...contexts.values()].some((c) => !c.finished);
    finish(pending ? 'aborted' : 'completed');
  });
  const chunkBytes = Math.max(1, script.chunkBytes ?? DEFAULT_CHUNK_BYTES);
  const perChar = speech.msPerCharacter ?? CARTESIA_MOCK_MS_PER_CHARACTER;

  const fail = (message: string, contextId?: string) => {
    const ctx = contextId === undefined ? undefined : contexts.get(contextId);
    if (ctx) ctx.finished = true;
    void scripted.message(() => errorEventPayload({ code: 400, message }, contextId));
  };

  const sendAudio = (ctx: Context, piece: Uint8Array) => {
    const first = ctx.chunks === 0;
    // The audio of the text sent since the last flush belongs to the next flush (its id).
    const flushId = ctx.flushes + 1;
    ctx.chunks++;
    void scripted.chunk(
      () =>
        JSON.stringify({
          type: 'chunk',
          context_id: ctx.id,
          data: base64(piece),
          done: false,
          status_code: 206,
          step_time: 10,
          flush_id: flushId,
        }),
      first,
      () => {
        ctx.finished = true;
        return errorEventPayload(script.errorEvent, ctx.id);
      },
      () => live(ctx),
    );
  };

  const produce = (ctx: Context, flush: boolean) => {
    const lateCount = script.lateChunks ?? 0;
    if (!ctx.lateSent && previous && lateCount > 0) {
      ctx.lateSent = true;
      const late = mockCartesiaAudio('late audio', previous.format, speech);
      const stale = previous.id;
      const staleFlushId = previous.flushes + 1;
      for (const piece of slices(late, Math.ceil(late.byteLength / lateCount))) {
        void scripted.message(() => ({
          type: 'chunk',
          context_id: stale,
          data: base64(piece),
          done: false,
          status_code: 206,
          flush_id: staleFlushId,
        }));
      }
    }
    const total = mockCartesiaSampleCount(ctx.text.length, ctx.format.sampleRate, speech);
    const fresh = ctx.audio.next(total - ctx.audio.generated);
    const audioBytes = ctx.audioQueued + fresh.byteLength;
    const msPerByte = audioBytes === 0 ? 0 : (ctx.text.length * perChar) / audioBytes;
    const complete = ctx.inputEnded ? ctx.text.length : ctx.lastWhitespace + 1;
    if (ctx.timestamps)
      ctx.wordsScanned = appendWordTimestamps(ctx.text, ctx.wordsScanned, complete, speech, ctx.words);
    const words = ctx.timestamps ? ctx.words : undefined;
    /** Queues the timestamps of the known words that end within `seconds` of audio. */
    const stampUntil = (seconds: number) => {
      if (!words) return;
      const from = ctx.stamped;
      while (ctx.stamped < words.words.length && words.end[ctx.stamped]! <= seconds) ctx.stamped++;
      if (ctx.stamped === from) return;
      const word_timestamps = {
        words: words.words.slice(from, ctx.stamped),
        start: words.start.slice(from, ctx.stamped),
        end: words.end.slice(from, ctx.stamped),
      };
      const flush_id = ctx.flushes + 1;
      void scripted.message(() =>
        live(ctx)
          ? {
              type: 'timestamps',
              context_id: ctx.id,
              word_timestamps,
              done: false,
              status_code: 206,
              flush_id,
            }
          : undefined,
      );
    };
    stampUntil((ctx.audioQueued * msPerByte) / 1000);
    for (const piece of slices(fresh, chunkBytes)) {
      sendAudio(ctx, piece);
      ctx.audioQueued += piece.byteLength;
      stampUntil((ctx.audioQueued * msPerByte) / 1000);
    }
    if (ctx.inputEnded) stampUntil(Number.POSITIVE_INFINITY);
    if (flush) {
      ctx.flushes++;
      const flushId = ctx.flushes;
      void scripted.message(() =>
        live(ctx)
          ? {
              type: 'flush_done',
              context_id: ctx.id,
              done: false,
              flush_done: true,
              flush_id: flushId,
              status_code: 206,
            }
          : undefined,
      );
    }
    if (ctx.inputEnded && !script.endWithoutDone) {
      void scripted.message(() => {
        if (!live(ctx)) return undefined;
        ctx.finished = true;
        return { type: 'done', context_id: ctx.id, done: true, status_code: 200 };
      });
    }
  };

  const onRequest = (json: unknown) => {
    if (!isObject(json)) return fail('Message must be a JSON object');
    const id = json.context_id;
    if (typeof id !== 'string' || id === '') return fail('context_id is required');
    if (json.cancel === true) {
      const ctx = contexts.get(id);
      if (ctx) ctx.cancelled = true;
      return;
    }
    let ctx = contexts.get(id);
    if (ctx?.finished || ctx?.inputEnded) return fail(`Context ${id} has already ended`, id);
    if (typeof json.model_id !== 'string' || json.model_id === '') return fail('model_id is required', id);
    if (typeof json.transcript !== 'string') return fail('transcript must be a string', id);
    const voice = json.voice;
    if (!isObject(voice) || voice.mode !== 'id' || typeof voice.id !== 'string' || voice.id === '') {
      return fail('voice must be {"mode":"id","id":"<voice id>"}', id);
    }
    const format = rawFormat(json.output_format);
    if (typeof format === 'string') return fail(format, id);
    if (!ctx) {
      ctx = {
        id,
        format,
        timestamps: json.add_timestamps === true,
        text: '',
        lastWhitespace: -1,
        audio: syntheticAudioSampler(format, speech.seed ?? 0),
        audioQueued: 0,
        words: { words: [], start: [], end: [] },
        wordsScanned: 0,
        stamped: 0,
        chunks: 0,
        flushes: 0,
        inputEnded: false,
        finished: false,
        cancelled: false,
        lateSent: false,
      };
      if (contexts.size > 0) previous = [...contexts.values()].at(-1);
      contexts.set(id, ctx);
    }
    const added = lastWhitespace(json.transcript);
    if (added >= 0) ctx.lastWhitespace = ctx.text.length + added;
    ctx.text += json.transcript;
    if (json.continue !== true) ctx.inputEnded = true;
    produce(ctx, json.flush === true);
  };

  if (!scripted.start()) return;
  socket.onMessage((data) => {
    if (typeof data !== 'string') {
      record.frames.push({ type: 'binary', data });
      fail('Binary frames are not accepted: send JSON text');
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      record.frames.push({ type: 'text', data });
      fail('Message is not valid JSON');
      return;
    }
    record.frames.push({ type: 'text', data, json });
    record.messages.push(json);
    onRequest(json);
  });
}

/** The last index of whitespace in `text`, -1 when none. */
function lastWhitespace(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) if (/\s/.test(text[i]!)) return i;
  return -1;
}

/** The format of a raw `output_format`, or the reason it is not one (PROTOCOLS.md 1.2). */
export function rawFormat(value: unknown): AudioFormat | string {
  if (!isObject(value)) return 'output_format is required';
  if (value.container !== 'raw') return 'output_format.container must be "raw" on this endpoint';
  const encoding = typeof value.encoding === 'string' ? WIRE_TO_ENCODING[value.encoding] : undefined;
  if (!encoding) return `output_format.encoding ${JSON.stringify(value.encoding)} is not supported`;
  if (typeof value.sample_rate !== 'number' || !MOCK_SAMPLE_RATES.includes(value.sample_rate)) {
    return `output_format.sample_rate ${JSON.stringify(value.sample_rate)} is not supported`;
  }
  return { encoding, sampleRate: value.sample_rate };
}
