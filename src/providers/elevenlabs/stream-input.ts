import { durationMs } from '../../audio/format.js';
import { AbortError, ProtocolError, ProviderError, VoxrouteError } from '../../errors/index.js';
import type { Clock } from '../../internal/clock.js';
import type {
  WebSocketConnection,
  WebSocketMessage,
  WebSocketTransport,
} from '../../transport/websocket-types.js';
import type { AudioFormat } from '../../types/audio.js';
import { AwaitedText } from '../shared/awaited-text.js';
import { decodeBase64Audio } from '../shared/base64-audio.js';
import { jsonFrame } from '../shared/json-frame.js';
import { textPiece } from '../shared/text-piece.js';
import { withPartialOutput } from '../shared/with-partial-output.js';
import type { AttemptContext, TtsTextPiece } from '../types.js';
import { wordsFromAlignment } from './alignment.js';
import type { ServerMessage, WireInitializeMessage, WireTextMessage } from './api-types.js';
import { serverMessageSchema } from './api-types.js';
import { Channel } from './channel.js';
import type { ElevenLabsEndpoint } from './endpoint.js';
import { languageCode, ttsUrl, wireVoiceSettings } from './endpoint.js';
import { INPUT_TIMEOUT, streamInputError } from './errors.js';
import { requireOutputFormat } from './http-stream.js';
import type { ElevenLabsTtsOptions } from './options.js';
import { DEFAULT_KEEP_ALIVE_MS } from './options.js';
import { TextChunker } from './text-chunker.js';
import type { ElevenLabsAudio, ElevenLabsTtsRequest } from './types.js';

/** What {@link streamInput} needs besides the request and the attempt. */
export interface StreamInputContext {
  endpoint: ElevenLabsEndpoint;
  options: ElevenLabsTtsOptions;
  /** Time source of the keep-alive timer. */
  clock: Clock;
  /** The WebSocket transport to use. */
  webSocket: WebSocketTransport;
}

/** Most sockets one attempt replaces after they closed while idle (before any text was sent on them). */
const MAX_REPLACEMENTS = 2;

const KEEP_ALIVE = JSON.stringify({ text: ' ' });
const END_OF_INPUT = JSON.stringify({ text: '' });

/** One socket of a session and what happened on it. */
interface Socket {
  conn: WebSocketConnection;
  /** True once a text message (not the initial `" "` or a keep-alive) was sent on it. */
  textSent: boolean;
  /** True once it closed (or failed) while idle: it is replaced before the next text. */
  dead: boolean;
  /** Why it died, for when it cannot be replaced. */
  deathError?: unknown;
}

/**
 * Text-to-speech over the stream-input WebSocket
 * `wss://{host}/v1/text-to-speech/{voice}/stream-input?model_id=&output_format=&language_code=`
 * (PROTOCOLS.md 4.3, section 7 item 4):
 * 1. connects (handshake header `xi-api-key` when the transport can send headers) and sends the
 *    initial message `{"text":" ", voice_settings?, generation_config?, "xi-api-key"?}` (the key
 *    goes there only when headers cannot be sent);
 * 2. sends a string text as one message (ending with a space); streamed text as it comes, cut
 *    at word boundaries, each message ending with a space (see TextChunker): the router's pieces
 *    with `flush: true` at each clause end the router marks, plain string pieces with
 *    `flush: true` at sentence ends; while the text stream pauses, a keep-alive
 *    `{"text":" "}` every `keepAliveIntervalMs` (default 10,000) so the server's 20 s inactivity
 *    close never fires;
 * 3. sends `{"text":""}` at the end of the text; the server sends the rest of the audio, then
 *    `{"isFinal":true}`, then closes.
 * Audio messages `{audio, alignment, normalizedAlignment}` (camelCase) are yielded as the
 * decoded bytes labelled with `request.format`, with `words` (ms from the start of this
 * synthesis) when alignment data came with them (`alignment`, else `normalizedAlignment`).
 *
 * Deadlines: the transport's connect deadline; the idle deadline (`attempt.deadlines.idleMs`)
 * only once the whole text was sent (while the caller's text stream pauses, the server is
 * silent by design) and the first audio came (the wait for it is the router's first-chunk
 * deadline's), through `setIdleMs` when the connection has it (else it applies throughout).
 * A socket that closes while idle (no text sent on it yet; not a non-retryable close such as
 * 1008) is replaced before the next text is sent, at most twice per call.
 *
 * Throws: the transport's errors (ProviderError for a refused upgrade, e.g. 401; TimeoutError
 * `connect`; AbortError); ProviderError for an error message from the server or an error
 * close (status = the close code; a 1008 is retryable, not auth, when its code or message names
 * a quota, concurrency, rate limit or the inactivity timeout, auth for a bad key:
 * `policyCloseVerdict`);
 * TimeoutError `idle` for a stall after the text ended; ProtocolError for a binary or
 * malformed frame, a clean close without `{"isFinal":true}`, or `{"isFinal":true}` before
 * `{"text":""}` was sent (both truncated: text would go unspoken). Every error after audio was
 * yielded has `partialOutput: true`. No message holds the API key. Ending the iteration early
 * or aborting `attempt.signal` closes the socket at once.
 *
 * The text iterable throwing: the end of input is never sent, so the text after the last
 * `flush: true` is not spoken. The text flushed before is spoken to its end first: its audio is
 * yielded until the audio's `alignment` characters (white space aside) cover it, then the
 * iterable's error is thrown (as it is) and the socket closed; audio past it is dropped. At once
 * with no flushed text left unspoken; without `alignment`, after the first audio lacking it.
 */
export async function* streamInput(
  context: StreamInputContext,
  request: ElevenLabsTtsRequest,
  attempt: AttemptContext,
): AsyncGenerator<ElevenLabsAudio> {
  const session = new StreamInputSession(context, request, attempt);
  try {
    await session.start();
    for (;;) {
      const next = await session.output.next();
      // Audio already received is dropped once the attempt is aborted (barge-in).
      session.throwIfStopped();
      if (next.done) return;
      yield next.value;
    }
  } finally {
    session.dispose();
  }
}

class StreamInputSession {
  readonly output = new Channel<ElevenLabsAudio>();
  private readonly provider: string;
  private readonly format: AudioFormat;
  private readonly url: string;
  private readonly secrets: Record<string, string>;
  private readonly keepAliveMs: number;
  private readonly stop = new AbortController();
  private current: Socket | undefined;
  private replacements = 0;
  private ended = false;
  private disposed = false;
  private hadOutput = false;
  private audioBytes = 0;
  private keepAliveTimer: unknown;
  private textIterator: AsyncIterator<string | TtsTextPiece> | undefined;
  /** Characters (white space aside) of the text sent, and of the text sent up to the last flush. */
  private sentChars = 0;
  private flushedChars = 0;
  /** Characters (white space aside) the audio so far speaks, by its `alignment`; undefined once audio came without one. */
  private alignedChars: number | undefined = 0;
  /** The caller's text failed while flushed text was still being spoken: its error, thrown once that audio is in. */
  private textFailure: { error: unknown } | undefined;
  /**
   * The idle deadline's rule (shared with every streamed-text adapter): from the first audio on,
   * while an answer is owed; ElevenLabs acknowledges no flush, so it owes one once the end of
   * input was sent.
   */
  private readonly awaited = new AwaitedText((counts) =>
    this.current?.conn.setIdleMs?.(counts ? (this.attempt.deadlines.idleMs ?? 0) : 0),
  );

  constructor(
    private readonly context: StreamInputContext,
    private readonly request: ElevenLabsTtsRequest,
    private readonly attempt: AttemptContext,
  ) {
    const { endpoint, options } = context;
    this.provider = endpoint.provider;
    this.format = { ...request.format };
    this.secrets = { 'xi-api-key': endpoint.apiKey };
    this.keepAliveMs = options.keepAliveIntervalMs ?? DEFAULT_KEEP_ALIVE_MS;
    this.url = ttsUrl(
      endpoint,
      request.voice,
      'stream-input',
      {
        model_id: request.model ?? options.model,
        output_format: requireOutputFormat(this.provider, request.format),
        language_code: languageCode(request.language),
      },
      true,
    );
    attempt.signal.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Opens the first socket and starts sending the text. */
  async start(): Promise<void> {
    if (this.attempt.signal.aborted) this.onAbort();
    this.current = await this.open();
    this.pump().catch((error: unknown) => this.output.fail(this.typed(error)));
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.attempt.signal.removeEventListener('abort', this.onAbort);
    this.stop.abort();
    this.clearKeepAlive();
    this.current?.conn.close(1000, '');
    const iterator = this.textIterator;
    this.textIterator = undefined;
    if (iterator?.return) Promise.resolve(iterator.return()).catch(() => {});
  }

  private readonly onAbort = (): void => {
    this.stop.abort(this.attempt.signal.reason);
  };

  /** Connects, sends the initial message, starts reading. */
  private async open(): Promise<Socket> {
    const { webSocket, endpoint, options } = this.context;
    const headers = webSocket.canSendHeaders === false ? undefined : { 'xi-api-key': endpoint.apiKey };
    const conn = await webSocket.connect({
      provider: this.provider,
      url: this.url,
      ...(headers ? { headers } : {}),
      signal: this.attempt.signal,
      deadlines: {
        ...(this.attempt.deadlines.connectMs ? { connectMs: this.attempt.deadlines.connectMs } : {}),
        ...(this.attempt.deadlines.idleMs ? { idleMs: this.attempt.deadlines.idleMs } : {}),
      },
    });
    if (this.disposed) {
      conn.close(1000, '');
      throw new AbortError('The ElevenLabs synthesis was abandoned');
    }
    // The server is silent while the caller's text stream pauses, and the wait for its first
    // audio is the first-chunk deadline's: no idle deadline until it has spoken and owes an
    // answer (the end of input).
    if (!this.awaited.counts) conn.setIdleMs?.(0);
    const init: WireInitializeMessage = { text: ' ' };
    const settings = wireVoiceSettings(options.voiceSettings, this.request.speed);
    if (settings) init.voice_settings = settings;
    if (options.chunkLengthSchedule) {
      init.generation_config = { chunk_length_schedule: [...options.chunkLengthSchedule] };
    }
    if (!headers) init['xi-api-key'] = endpoint.apiKey;
    const socket: Socket = { conn, textSent: false, dead: false };
    conn.send(JSON.stringify(init));
    void this.read(socket);
    this.armKeepAlive();
    return socket;
  }

  /** Sends the caller's text, then the end of input. */
  private async pump(): Promise<void> {
    const chunker = new TextChunker();
    const { text } = this.request;
    if (typeof text === 'string') {
      // The whole text in one message: the end of input that follows generates all of it.
      if (text.trim() !== '' && !(await this.sendText({ text: `${text.trimEnd()} ` }))) return;
    } else {
      const iterator = text[Symbol.asyncIterator]();
      this.textIterator = iterator;
      for (;;) {
        let next: IteratorResult<string | TtsTextPiece>;
        try {
          next = await this.untilStopped(iterator.next());
        } catch (error) {
          if (this.stop.signal.aborted) throw error;
          this.textFailed(error);
          return;
        }
        if (next.done) break;
        const item = next.value;
        const piece = typeof item === 'string' ? undefined : textPiece(item, () => false);
        if (typeof item !== 'string' && piece === undefined) continue;
        const messages = piece
          ? chunker.pushPiece(piece.text, piece.clauseEnd)
          : chunker.push(item as string);
        for (const message of messages) {
          if (!(await this.sendText(message))) return;
        }
      }
      this.textIterator = undefined;
      for (const message of chunker.end()) {
        if (!(await this.sendText(message))) return;
      }
    }
    await this.sendEnd();
  }

  /** Sends one text message; false when the socket failed after text was sent (the reader reports it). */
  private async sendText(message: WireTextMessage): Promise<boolean> {
    for (;;) {
      const socket = await this.usable();
      if (!socket) return false;
      const hadText = socket.textSent;
      socket.textSent = true;
      if (socket.conn.send(JSON.stringify(message))) {
        this.sentChars += visibleChars(message.text);
        if (message.flush === true) this.flushedChars = this.sentChars;
        this.armKeepAlive();
        return true;
      }
      if (hadText) return false;
      socket.textSent = false;
      this.markDead(socket, undefined);
    }
  }

  /**
   * The caller's text stream threw `error`: the text flushed so far is spoken to its end, then
   * `error` is thrown and the socket closed without the end of input (the text after the last
   * flush is never spoken). The end of the flushed text's audio is known by its `alignment`
   * characters: at once with no flushed text left unspoken (or audio without alignment came
   * before), else after the first audio lacking it.
   */
  private textFailed(error: unknown): void {
    this.textIterator = undefined;
    this.clearKeepAlive();
    if (!this.flushedUnspoken()) {
      this.output.fail(error);
      return;
    }
    this.textFailure = { error };
    // The server owes the flushed text's audio: its silence counts from here (the idle deadline).
    this.awaited.flushed();
  }

  /** Sends `{"text":""}` and arms the idle deadline. */
  private async sendEnd(): Promise<void> {
    const socket = await this.usable();
    if (!socket) return;
    this.ended = true;
    this.clearKeepAlive();
    this.awaited.inputEnded();
    socket.conn.send(END_OF_INPUT);
  }

  /**
   * The socket to send on: the current one, or a new one when it closed while idle. Undefined
   * when it closed after text was sent (its reader fails the output).
   */
  private async usable(): Promise<Socket | undefined> {
    this.throwIfStopped();
    const socket = this.current!;
    if (!socket.dead && socket.conn.isOpen) return socket;
    if (socket.textSent) return undefined;
    if (!socket.dead) this.markDead(socket, undefined);
    if (this.replacements >= MAX_REPLACEMENTS) {
      throw socket.deathError ?? this.closedWhileIdle();
    }
    this.replacements++;
    this.current = await this.open();
    return this.current;
  }

  private closedWhileIdle(): ProviderError {
    return new ProviderError(
      `Provider '${this.provider}' kept closing the stream-input WebSocket before any text`,
      {
        provider: this.provider,
        retryable: true,
      },
    );
  }

  private markDead(socket: Socket, error: unknown): void {
    socket.dead = true;
    if (error !== undefined) socket.deathError = error;
    socket.conn.close(1000, '');
  }

  /** Reads one socket's messages until it ends; reports the outcome. */
  private async read(socket: Socket): Promise<void> {
    try {
      for await (const message of socket.conn.messages()) {
        if (socket !== this.current || this.output.closed) return;
        if (this.handle(socket, message) === 'stop') return;
      }
      this.onEnded(socket, undefined);
    } catch (error) {
      this.onEnded(socket, error);
    }
  }

  /** Handles one message: audio is pushed, the end ends the output, an error ends the socket. */
  private handle(socket: Socket, message: WebSocketMessage): 'continue' | 'stop' {
    const parsed = this.parse(message);
    if (parsed.audio) {
      const data = decodeBase64Audio(parsed.audio, this.provider, this.hadOutput);
      if (data.byteLength > 0) {
        const chars = parsed.alignment?.chars;
        this.alignedChars =
          chars && this.alignedChars !== undefined
            ? this.alignedChars + visibleChars(chars.join(''))
            : undefined;
        const offsetMs = durationMs(this.format, this.audioBytes);
        const words = wordsFromAlignment(parsed.alignment ?? parsed.normalizedAlignment, offsetMs);
        this.audioBytes += data.byteLength;
        this.hadOutput = true;
        this.awaited.audio();
        this.output.push(
          words.length > 0 ? { data, format: this.format, words } : { data, format: this.format },
        );
        if (this.textFailure && !this.flushedUnspoken()) {
          // The flushed text has all been spoken: the caller's text failure ends the synthesis
          // (audio past it, generated by the chunk schedule, is not read).
          this.output.fail(this.textFailure.error);
          socket.conn.close(1000, '');
          return 'stop';
        }
      }
    }
    if (parsed.isFinal === true) {
      if (this.ended) this.output.end();
      else if (this.isIdle(socket)) {
        // Nothing was asked of this socket yet: it is replaced before the first text.
        this.markDead(socket, undefined);
        return 'stop';
      } else {
        // The end of input was not sent: the text after this point would never be spoken.
        this.output.fail(
          new ProtocolError('ElevenLabs sent {"isFinal":true} before the end of the text (truncated)', {
            provider: this.provider,
            partialOutput: this.hadOutput,
          }),
        );
      }
      socket.conn.close(1000, '');
      return 'stop';
    }
    if (!parsed.audio && (parsed.error || parsed.message)) {
      const error = streamInputError(this.provider, parsed, undefined, this.hadOutput, this.secrets);
      if (this.isIdle(socket) && (parsed.error === INPUT_TIMEOUT || error.retryable)) {
        this.markDead(socket, error);
      } else {
        this.output.fail(error);
        socket.conn.close(1000, '');
      }
      return 'stop';
    }
    return 'continue';
  }

  /**
   * True while flushed text is not all spoken yet, by the `alignment` characters of the audio
   * so far; false once audio came without alignment data (how far it got is unknown).
   */
  private flushedUnspoken(): boolean {
    return this.alignedChars !== undefined && this.alignedChars < this.flushedChars;
  }

  /** A server message, checked; throws ProtocolError for a binary frame or JSON that does not fit. */
  private parse(message: WebSocketMessage): ServerMessage {
    const { provider } = this;
    const json = jsonFrame(message, provider, 'ElevenLabs');
    const result = serverMessageSchema().safeParse(json);
    if (!result.success) {
      const issue = result.error.issues[0];
      const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
      throw new ProtocolError(`Unexpected stream-input message${where}: ${issue?.message ?? 'invalid'}`, {
        provider,
        cause: result.error,
      });
    }
    return result.data;
  }

  /** True while a socket has had no text and the text has not ended: its loss costs nothing. */
  private isIdle(socket: Socket): boolean {
    return !socket.textSent && !this.ended;
  }

  /** A socket's messages ended: normally (`error` undefined) or with an error. */
  private onEnded(socket: Socket, error: unknown): void {
    if (socket !== this.current || this.output.closed || socket.dead) return;
    if (error === undefined) {
      if (this.isIdle(socket)) {
        this.markDead(socket, undefined);
      } else {
        // The end is {"isFinal":true}; a clean close without it may have cut the audio (C29).
        const when = this.ended ? 'before {"isFinal":true}' : 'before the end of the text';
        this.output.fail(
          new ProtocolError(`ElevenLabs closed the stream-input WebSocket ${when} (truncated)`, {
            provider: this.provider,
            partialOutput: this.hadOutput,
          }),
        );
      }
      return;
    }
    const typed = this.typed(error);
    if (
      this.isIdle(socket) &&
      !AbortError.isInstance(typed) &&
      VoxrouteError.isInstance(typed) &&
      typed.retryable &&
      !this.stop.signal.aborted
    ) {
      this.markDead(socket, typed);
      return;
    }
    this.output.fail(typed);
  }

  /** Any failure as a voxroute error with the right `partialOutput` and no secret in its message. */
  private typed(error: unknown): unknown {
    if (AbortError.isInstance(error)) return error;
    if (ProviderError.isInstance(error)) {
      return streamInputError(this.provider, undefined, error, this.hadOutput, this.secrets);
    }
    if (VoxrouteError.isInstance(error)) return withPartialOutput(error, this.hadOutput);
    if (this.stop.signal.aborted)
      return new AbortError('The ElevenLabs synthesis was aborted', { cause: error });
    // Anything else came from the caller's own text stream: passed through as it is.
    return error;
  }

  /** Throws AbortError once the attempt was aborted or the session disposed. */
  throwIfStopped(): void {
    if (this.stop.signal.aborted) {
      throw new AbortError('The ElevenLabs synthesis was aborted', { cause: this.stop.signal.reason });
    }
  }

  /** `promise`, or an AbortError as soon as the session stops. */
  private untilStopped<T>(promise: Promise<T>): Promise<T> {
    const { signal } = this.stop;
    if (signal.aborted) return Promise.reject(new AbortError('The ElevenLabs synthesis was aborted'));
    return new Promise<T>((resolve, reject) => {
      const onStop = () =>
        reject(new AbortError('The ElevenLabs synthesis was aborted', { cause: signal.reason }));
      signal.addEventListener('abort', onStop, { once: true });
      promise.then(
        (value) => {
          signal.removeEventListener('abort', onStop);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onStop);
          reject(error);
        },
      );
    });
  }

  private armKeepAlive(): void {
    this.clearKeepAlive();
    if (this.ended || this.disposed || this.keepAliveMs <= 0) return;
    this.keepAliveTimer = this.context.clock.setTimeout(this.onKeepAlive, this.keepAliveMs);
  }

  private clearKeepAlive(): void {
    if (this.keepAliveTimer === undefined) return;
    this.context.clock.clearTimeout(this.keepAliveTimer);
    this.keepAliveTimer = undefined;
  }

  private readonly onKeepAlive = (): void => {
    this.keepAliveTimer = undefined;
    const socket = this.current;
    if (this.ended || this.disposed || !socket || socket.dead) return;
    if (socket.conn.send(KEEP_ALIVE)) this.armKeepAlive();
  };
}

/** The characters of `text` that are not white space (as both the text sent and `alignment.chars` count them). */
function visibleChars(text: string): number {
  let n = 0;
  for (const c of text) if (c.trim() !== '') n++;
  return n;
}
