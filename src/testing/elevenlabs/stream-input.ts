import { checkString } from '../../internal/arg-checks.js';
import type { AudioFormat } from '../../types/audio.js';
import type { Delay } from '../delay.js';
import { DEFAULT_CHUNK_BYTES, type MockErrorEvent } from '../mock-script.js';
import type { MockSocket } from '../mock-websocket.js';
import { base64 } from '../sse.js';
import { type MockElevenLabsSpeech, mockElevenLabsAudio, mockElevenLabsDurationMs } from './audio.js';
import { closeReason, inactivityMessage, type StreamInputErrorMessage } from './errors.js';
import { slices } from './http.js';
import type { ElevenLabsSocketRecord } from './recorded-socket.js';
import type { ElevenLabsSocketScript } from './script.js';

/** Which key the mock's alignment objects use for character durations (elevenlabs-js and ElevenLabs' AsyncAPI spec name it differently). */
export type ElevenLabsAlignmentDurationsKey = 'charDurationsMs' | 'charsDurationsMs';

/** The server's default `chunk_length_schedule` (elevenlabs-js `GenerationConfig`; frozen). */
export const ELEVENLABS_CHUNK_LENGTH_SCHEDULE: readonly number[] = Object.freeze([120, 160, 250, 290]);

/** Fewest buffered characters for which `try_trigger_generation` generates (the mock's rule). */
const TRY_TRIGGER_MIN = 50;

/** Everything one session needs. */
export interface StreamInputSession {
  socket: MockSocket;
  record: ElevenLabsSocketRecord;
  received: (message: unknown) => void;
  /** Called after each audio message sent (the mock counts them on the upgrade's record too). */
  onChunkSent?: () => void;
  /** Called once when the socket has closed; `byServer` is true when the mock closed or dropped it. */
  closed: (code: number, reason: string, byServer: boolean) => void;
  format: AudioFormat;
  script: ElevenLabsSocketScript;
  /** The key every session must present, if any. */
  apiKey: string | undefined;
  /** The key of the handshake, if any: the `xi-api-key` header, else the `authorization` query parameter. */
  handshakeKey: { key: string; via: 'header' | 'query' } | undefined;
  speech: MockElevenLabsSpeech;
  durationsKey: ElevenLabsAlignmentDurationsKey;
  /** Inactivity window in ms. */
  inactivityMs: number;
  delay: Delay;
}

/**
 * Character alignment of `text` spread evenly over `durationMs` (whole ms), as elevenlabs-js `Alignment`.
 * @throws TypeError naming the argument when `text` is not a string; RangeError when
 *   `durationMs` is not a finite number >= 0.
 */
export function mockElevenLabsAlignment(
  text: string,
  durationMs: number,
  durationsKey: ElevenLabsAlignmentDurationsKey = 'charDurationsMs',
): Record<string, unknown> {
  checkString('mockElevenLabsAlignment(text, durationMs, durationsKey?): text', text);
  if (typeof durationMs !== 'number' || !Number.isFinite(durationMs) || durationMs < 0)
    throw new RangeError(
      `mockElevenLabsAlignment: durationMs must be a number of ms >= 0, got ${typeof durationMs === 'number' ? durationMs : typeof durationMs}`,
    );
  const chars = Array.from(text);
  const step = chars.length > 0 ? durationMs / chars.length : 0;
  const starts = chars.map((_, i) => Math.round(i * step));
  const durations = chars.map((_, i) => Math.round((i + 1) * step) - Math.round(i * step));
  return { chars, charStartTimesMs: starts, [durationsKey]: durations };
}

function errorMessageOf(event: MockErrorEvent | undefined): StreamInputErrorMessage {
  return {
    message: event?.message ?? 'mock error event',
    error: typeof event?.code === 'string' ? event.code : (event?.type ?? 'internal_error'),
    code: typeof event?.code === 'number' ? event.code : 1011,
  };
}

function invalidInput(message: string): StreamInputErrorMessage {
  return { message, error: 'invalid_input_message', code: 1008 };
}

function keyOf(message: Record<string, unknown>): string | undefined {
  for (const name of ['xi-api-key', 'xi_api_key']) {
    const value = message[name];
    if (typeof value === 'string') return value;
  }
  const auth = message.authorization;
  if (typeof auth === 'string') return auth.replace(/^Bearer\s+/i, '');
  return undefined;
}

/**
 * Runs one stream-input session (PROTOCOLS.md 4.3, section 7 item 4) on an accepted socket:
 * - the first message must be `{"text":" "}` with optional `voice_settings` (its `speed` slows
 *   or speeds the audio), `generation_config.chunk_length_schedule`, and the key
 *   (`xi-api-key`, `xi_api_key` or `authorization`) unless the handshake had it (the
 *   `xi-api-key` header or the `authorization` query parameter);
 * - text is buffered; a generation (one `ElevenLabsSocketRecord.generations` entry) happens on
 *   `flush: true`, when the buffer reaches the schedule's next length (default
 *   120, 160, 250, 290), on `try_trigger_generation` with at least 50 characters, and at the
 *   end; with `auto_mode=true` in the query (which disables "the chunk schedule and all
 *   buffers", ElevenLabs' stream-input reference) every text message is generated as it comes; each sends the mock's audio for that text (see `mockElevenLabsAudio`) as base64 in
 *   `chunkBytes` messages `{audio, normalizedAlignment, alignment}`, the first of which carries
 *   the generation's alignment (times from that message's start), the others `null`;
 * - `{"text":" "}` (whitespace, no flush) is a keep-alive; `{"text":""}` ends the input: the
 *   rest is generated, then `{"isFinal":true}` is sent and the socket closes with 1000;
 * - errors are sent as `{"message","error","code":1008}` then a close 1008: a wrong or missing
 *   key (`invalid_api_key`), a message that is not JSON or has no string `text`
 *   (`invalid_input_message`), and no message for `inactivityMs` (`input_timeout_exceeded`;
 *   the wait goes through `delay`, restarted by every message, stopped by the end of input);
 * - the script's faults apply (see ElevenLabsSocketScript).
 */
export function runStreamInput(session: StreamInputSession): void {
  const { socket, record, script, delay } = session;
  const chunkBytes = Math.max(1, script.chunkBytes ?? DEFAULT_CHUNK_BYTES);
  const stop = new AbortController();
  let open = true;
  let halted = false;
  let initialized = false;
  let ended = false;
  let malformedSent = false;
  let buffer = '';
  let speed = 1;
  let schedule = ELEVENLABS_CHUNK_LENGTH_SCHEDULE;
  // `auto_mode=true`: "disabling the chunk schedule and all buffers" (ELAAPI): each text is spoken as it comes.
  const autoMode = record.query.auto_mode === 'true';
  let idle: AbortController | undefined;
  let chain: Promise<void> = Promise.resolve();
  let closedByServer = false;

  socket.onClose((code, reason) => {
    open = false;
    stop.abort();
    idle?.abort();
    session.closed(code, reason, closedByServer);
  });

  const send = (value: unknown) => {
    if (!open || halted) return;
    record.sent.push(value);
    socket.send(JSON.stringify(value));
  };
  const closeWith = (code: number, reason: string) => {
    if (!open || closedByServer) return;
    halted = true;
    closedByServer = true;
    idle?.abort();
    socket.close(code, reason);
  };
  const fail = (error: StreamInputErrorMessage) => {
    if (halted || !open) return;
    send(error);
    closeWith(error.code, closeReason(error.message));
  };
  const enqueue = (work: () => Promise<void> | void) => {
    chain = chain.then(work).catch(() => {});
  };

  /** Applies the script's faults at the current position; true when the session stops sending. */
  const faultsAt = (): boolean => {
    const sent = record.chunksSent;
    if (script.resetAfterChunks === sent) {
      halted = true;
      closedByServer = true;
      socket.terminate();
      return true;
    }
    if (script.closeAfterChunks === sent) {
      closeWith(script.closeCode ?? 1011, script.closeReason ?? '');
      return true;
    }
    if (script.stallAfterChunks === sent) {
      halted = true;
      return true;
    }
    if (script.errorEventAfterChunks === sent) {
      fail(errorMessageOf(script.errorEvent));
      return true;
    }
    if (!malformedSent && script.malformedAfterChunks === sent) {
      malformedSent = true;
      record.sent.push('{"audio": tru');
      socket.send('{"audio": tru');
    }
    return false;
  };

  const armInactivity = () => {
    idle?.abort();
    if (!open || ended || halted) return;
    const controller = new AbortController();
    idle = controller;
    void delay(session.inactivityMs, controller.signal).then(() => {
      if (controller.signal.aborted || !open || ended || halted) return;
      fail({
        message: inactivityMessage(session.inactivityMs / 1000),
        error: 'input_timeout_exceeded',
        code: 1008,
      });
    });
  };

  const generate = (text: string) => {
    record.generations.push(text);
    const durationMs = mockElevenLabsDurationMs(text, session.speech, speed);
    const audio = mockElevenLabsAudio(text, session.format, session.speech, speed);
    const alignment = mockElevenLabsAlignment(text, durationMs, session.durationsKey);
    slices(audio, chunkBytes).forEach((piece, index) => {
      enqueue(async () => {
        if (halted || !open || faultsAt()) return;
        const wait = record.chunksSent === 0 ? script.firstChunkDelayMs : script.chunkGapMs;
        if (wait !== undefined && wait > 0) await delay(wait, stop.signal);
        if (halted || !open) return;
        const first = index === 0;
        send({
          audio: base64(piece),
          normalizedAlignment: first ? alignment : null,
          alignment: first ? alignment : null,
        });
        record.chunksSent++;
        session.onChunkSent?.();
      });
    });
  };

  const endInput = () => {
    ended = true;
    idle?.abort();
    if (buffer.trim() !== '') generate(buffer);
    buffer = '';
    enqueue(() => {
      if (halted || !open || faultsAt()) return;
      if (!script.endWithoutDone) send({ isFinal: true });
      closeWith(1000, '');
    });
  };

  const initialize = (message: Record<string, unknown>): void => {
    if (message.text !== ' ') {
      fail(invalidInput('The first message must have text " " (one space).'));
      return;
    }
    const key = keyOf(message);
    if (key !== undefined && record.auth === 'none') record.auth = 'message';
    const byHandshake = record.auth === 'header' || record.auth === 'query';
    if (session.apiKey !== undefined && !byHandshake && key !== session.apiKey) {
      fail({ message: 'Invalid API key.', error: 'invalid_api_key', code: 1008 });
      return;
    }
    const settings = message.voice_settings as { speed?: unknown } | undefined;
    if (settings?.speed !== undefined && settings.speed !== null) {
      const value = settings.speed;
      if (typeof value !== 'number' || value < 0.7 || value > 1.2) {
        fail(invalidInput('voice_settings.speed must be a number from 0.7 to 1.2.'));
        return;
      }
      speed = value;
    }
    const config = message.generation_config as { chunk_length_schedule?: unknown } | undefined;
    const asked = config?.chunk_length_schedule;
    if (Array.isArray(asked) && asked.length > 0 && asked.every((n) => typeof n === 'number')) {
      schedule = asked as number[];
    }
    initialized = true;
  };

  const onText = (message: Record<string, unknown>): void => {
    const text = message.text as string;
    if (text === '') {
      endInput();
      return;
    }
    const flush = message.flush === true;
    if (text.trim() === '' && !flush) return; // keep-alive
    buffer += text;
    const threshold = schedule[Math.min(record.generations.length, schedule.length - 1)]!;
    const trigger = message.try_trigger_generation === true && buffer.length >= TRY_TRIGGER_MIN;
    if ((autoMode || flush || trigger || buffer.length >= threshold) && buffer.trim() !== '') {
      generate(buffer);
      buffer = '';
    }
  };

  socket.onMessage((data) => {
    let json: unknown;
    if (typeof data === 'string') {
      try {
        json = JSON.parse(data);
      } catch {
        json = undefined;
      }
    }
    session.received(json ?? data);
    if (!open || halted || ended) return;
    const message = json as Record<string, unknown> | undefined;
    if (typeof message !== 'object' || message === null || typeof message.text !== 'string') {
      fail(invalidInput('Could not parse the message: a JSON object with a string "text" is expected.'));
      return;
    }
    armInactivity();
    if (!initialized) initialize(message);
    else onText(message);
  });

  if (session.handshakeKey !== undefined) record.auth = session.handshakeKey.via;
  if (faultsAt()) return;
  if (
    session.apiKey !== undefined &&
    session.handshakeKey !== undefined &&
    session.handshakeKey.key !== session.apiKey
  ) {
    fail({ message: 'Invalid API key.', error: 'invalid_api_key', code: 1008 });
    return;
  }
  armInactivity();
}
