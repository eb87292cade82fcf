/**
 * Kind 4, silent truncation: a WebSocket TTS provider that ends the synthesis (Cartesia `done`,
 * ElevenLabs `{"isFinal":true}`) before voxroute sent the end of the text has cut the reply:
 * the call fails with a truncated ProtocolError (alone, MidStreamError after audio), and with
 * a backup and `midStream: 'resume'` the backup speaks the rest. A legitimate Cartesia
 * `flush_done` between clauses is not an end. Cartesia STT: a `done` before voxroute sent
 * `close` (audio still to come) is the same cut. The servers speak the wire on their own (ws).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import {
  type AudioChunk,
  MidStreamError,
  ProtocolError,
  type RoutedStream,
  type RouterConfig,
  type VoxrouteError,
} from '../../src/index.js';
import {
  answerPcm,
  concat,
  drain,
  httpServer,
  pcmSignal,
  readBody,
  router,
  wsServer,
} from '../cases/wire/servers.js';
import { ttsRouteWithBackup } from '../cases/wire/tts-route.js';
import { deferred } from '../helpers/deferred.js';

const FIRST = 'Hello there, ';
const REST = 'your table for two is booked for seven.';
/** The first clause's audio: 0.13 s of PCM s16le at 24 kHz. */
const FIRST_AUDIO = pcmSignal(3120, 24_000, 1);
const REST_AUDIO = pcmSignal(4800, 24_000, 2);
const BACKUP_AUDIO = pcmSignal(2400, 24_000, 3);

/** A promise with its resolver. */
const signal = () => deferred();

/** An LLM's reply: the first clause, then the rest once `gate` resolves (no sleep). */
async function* reply(gate: Promise<void>): AsyncGenerator<string> {
  yield FIRST;
  await gate;
  yield REST;
}

/**
 * Calls `then` once the client has read every frame sent so far: a ping sent after them is
 * answered (pong) when the client's WebSocket reads it, after it handed the earlier messages
 * on. Without it the next text could cross the end marker on the wire (a race no client can
 * tell from a real end), which on loopback is the common case.
 */
function afterRead(ws: WebSocket, then: () => void): void {
  ws.once('pong', () => then());
  ws.ping();
}

interface CartesiaMessage {
  context_id: string;
  transcript?: string;
  continue?: boolean;
  flush?: boolean;
  cancel?: boolean;
}

/**
 * A Cartesia `/tts/websocket` server. `early: true` (the fault): answers the first transcript
 * `FIRST` with the first clause's audio and `done` at once, and `heard` resolves once the
 * client read them; later contexts (`later`: their transcripts) get REST_AUDIO and `done` at
 * their end of input. `early: false` (the
 * protocol): answers a flush with the audio of the text since the last one (the first clause's
 * FIRST_AUDIO, then REST_AUDIO) and `flush_done`, the end of input (`continue: false`) with the
 * audio not sent yet and `done`; `heard` resolves once the first transcript arrived. Records
 * every message received and every type sent.
 */
async function cartesiaServer(early: boolean) {
  const received: CartesiaMessage[] = [];
  const sent: string[] = [];
  const heard = signal();
  /** Transcripts of the contexts after the fault. */
  const later: string[] = [];
  let faulted = false;
  const wire = await wsServer((ws: WebSocket) => {
    const send = (m: { type: string; [field: string]: unknown }) => {
      sent.push(m.type);
      ws.send(JSON.stringify(m));
    };
    let audioSent = 0;
    const audio = (ctx: string, bytes: Buffer) => {
      audioSent++;
      send({
        type: 'chunk',
        context_id: ctx,
        data: bytes.toString('base64'),
        done: false,
        status_code: 206,
      });
    };
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as CartesiaMessage;
      received.push(m);
      const ctx = m.context_id;
      if (early && !faulted && m.transcript === FIRST) {
        faulted = true;
        audio(ctx, FIRST_AUDIO);
        send({ type: 'done', context_id: ctx, done: true, status_code: 200 });
        afterRead(ws, heard.resolve);
        return;
      }
      if (m.transcript) {
        heard.resolve();
        if (faulted) later.push(m.transcript);
      }
      if (faulted) {
        if (m.continue === false) {
          audio(ctx, REST_AUDIO);
          send({ type: 'done', context_id: ctx, done: true, status_code: 200 });
        }
      } else if (m.flush) {
        const next = [FIRST_AUDIO, REST_AUDIO][audioSent];
        if (next) audio(ctx, next);
        send({
          type: 'flush_done',
          context_id: ctx,
          done: false,
          flush_done: true,
          status_code: 206,
        });
      } else if (m.continue === false) {
        for (const rest of [FIRST_AUDIO, REST_AUDIO].slice(audioSent)) audio(ctx, rest);
        send({ type: 'done', context_id: ctx, done: true, status_code: 200 });
      }
    });
  });
  return { wire, received, sent, later, heard: heard.promise };
}

/**
 * An ElevenLabs stream-input server: on its first connection, answers the first text message
 * (not the initial `" "`) with the first clause's audio and `{"isFinal":true}` at once (the
 * fault); `heard` resolves once the client read them. Later connections speak by the protocol:
 * REST_AUDIO and `{"isFinal":true}` after `{"text":""}` (`later`: the texts they got).
 */
async function elevenLabsServer() {
  const received: Array<{ text?: string; flush?: boolean }> = [];
  const later: string[] = [];
  const heard = signal();
  const wire = await wsServer((ws: WebSocket, _req, n) => {
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as { text?: string; flush?: boolean };
      received.push(m);
      if (m.text === undefined || m.text === ' ') return;
      if (n > 1) {
        if (m.text !== '') later.push(m.text.trim());
        else {
          ws.send(JSON.stringify({ audio: REST_AUDIO.toString('base64') }));
          ws.send(JSON.stringify({ audio: null, isFinal: true }));
        }
        return;
      }
      if (received.filter((r) => r.text !== undefined && r.text.trim() !== '').length !== 1) return;
      ws.send(
        JSON.stringify({ audio: FIRST_AUDIO.toString('base64'), alignment: null, normalizedAlignment: null }),
      );
      ws.send(JSON.stringify({ audio: null, isFinal: true }));
      afterRead(ws, heard.resolve);
    });
  });
  return { wire, received, later, heard: heard.promise };
}

/** An OpenAI-compatible TTS backup: answers every request with BACKUP_AUDIO; records the inputs. */
async function backupServer() {
  const inputs: string[] = [];
  const wire = await httpServer(async (req: IncomingMessage, res: ServerResponse) => {
    inputs.push((JSON.parse(String(await readBody(req))) as { input: string }).input);
    answerPcm(res, BACKUP_AUDIO);
  });
  return { wire, inputs };
}

/** The route of `primary` (`p`) alone, or followed by the backup `b` at `backupUrl` (resuming mid-stream). */
const config = (primary: RouterConfig['providers'][string], backupUrl?: string): RouterConfig =>
  ttsRouteWithBackup('p', primary, backupUrl, {
    midStream: backupUrl ? 'resume' : 'error',
    firstChunkTimeoutMs: false,
    idleTimeoutMs: 5000,
  });

const cartesia = (url: string) =>
  ({
    kind: 'cartesia',
    baseUrl: url,
    apiKey: 'sk_car_truncation',
    tts: { voices: { agent: 'car-voice' }, transport: 'websocket' },
  }) as const;

const elevenLabs = (url: string) =>
  ({
    kind: 'elevenlabs',
    baseUrl: url,
    apiKey: 'xi_truncation_key',
    tts: { voices: { agent: 'el-voice' }, transport: 'websocket' },
  }) as const;

/**
 * Speaks the {@link reply} whose rest waits for `heard` through a route of `primary` (followed
 * by the backup at `backupUrl` when given): the stream, what it yielded and how it ended.
 */
async function speakReply(
  primary: RouterConfig['providers'][string],
  heard: Promise<void>,
  backupUrl?: string,
) {
  const stream = router(config(primary, backupUrl)).tts({ text: reply(heard), voice: 'agent' });
  return { stream, ...(await drain<AudioChunk>(stream)) };
}

/**
 * A reply whose primary `p` was cut after the first clause, resumed by the backup: the first
 * clause's audio, then the backup's, flagged as a discontinuity, for the cut clause spoken again;
 * none of the reply lost (the rest spoken by the backup, or by the primary on a new context,
 * `later`); and p's attempt failed with a ProtocolError.
 */
async function expectResumedByBackup(
  spoken: { stream: RoutedStream<AudioChunk>; items: AudioChunk[]; error: unknown },
  backupInputs: string[],
  later: string[],
): Promise<void> {
  expect(spoken.error).toBeUndefined();
  expect(Buffer.from(spoken.items[0]!.data).equals(FIRST_AUDIO)).toBe(true);
  expect(Buffer.from(spoken.items[1]!.data).equals(BACKUP_AUDIO)).toBe(true);
  expect(spoken.items[1]!.discontinuity).toBe(true);
  expect(backupInputs[0]).toBe(FIRST.trim());
  expect([...backupInputs.slice(1), ...later].join(' ').trim()).toBe(REST);
  const attempts = (await spoken.stream.result).attempts;
  expect([attempts[0]!.provider, attempts[0]!.outcome]).toEqual(['p', 'failed']);
  expect(ProtocolError.isInstance(attempts[0]!.error)).toBe(true);
}

/** The truncated ProtocolError behind a MidStreamError. */
function truncatedCause(error: unknown): VoxrouteError {
  expect(MidStreamError.isInstance(error)).toBe(true);
  const cause = (error as MidStreamError).cause as VoxrouteError;
  expect(ProtocolError.isInstance(cause)).toBe(true);
  expect(cause.message).toContain('(truncated)');
  expect(cause.partialOutput).toBe(true);
  expect(cause.retryable).toBe(true);
  return cause;
}

describe('silent truncation: an end marker before the end of the text is a cut, never a complete reply', () => {
  it('silent truncation: Cartesia `done` after the first clause (alone): MidStreamError caused by a truncated ProtocolError after the first clause', async () => {
    const server = await cartesiaServer(true);
    const { stream, items, error } = await speakReply(cartesia(server.wire.url), server.heard);
    expect(concat(items.map((c) => c.data)).equals(FIRST_AUDIO)).toBe(true);
    expect(truncatedCause(error).message).toBe(
      'Cartesia sent done for the context before the end of the text (truncated)',
    );
    await expect(stream.result).rejects.toSatisfy((e) => MidStreamError.isInstance(e));
    // The context was cancelled and the socket closed (frames sent before the close arrive first), not kept warm.
    await new Promise<void>((resolve) => {
      const socket = server.wire.sockets[0]!;
      if (socket.closed) resolve();
      else socket.once('close', () => resolve());
    });
    const contextId = server.received[0]!.context_id;
    expect(server.received.filter((m) => m.cancel).map((m) => m.context_id)).toEqual([contextId]);
  });

  it('silent truncation: Cartesia `done` after the first clause, with a backup and midStream resume: the cut clause is spoken again by the backup, then the rest', async () => {
    const server = await cartesiaServer(true);
    const backup = await backupServer();
    const spoken = await speakReply(cartesia(server.wire.url), server.heard, backup.wire.url);
    // The clause whose end marker never came is spoken again by the backup, flagged; nothing of
    // the reply is lost: the rest is spoken by the backup or a new Cartesia context.
    await expectResumedByBackup(spoken, backup.inputs, server.later);
    expect(spoken.items[0]!.discontinuity).toBeUndefined();
    const attempts = (await spoken.stream.result).attempts;
    expect([attempts[1]!.provider, attempts[1]!.outcome]).toEqual(['b', 'success']);
  });

  it('silent truncation: Cartesia `flush_done` after a flush is not an end: the whole reply, one context, no error', async () => {
    const server = await cartesiaServer(false);
    const { stream, items, error } = await speakReply(cartesia(server.wire.url), server.heard);
    expect(error).toBeUndefined();
    expect(concat(items.map((c) => c.data)).equals(Buffer.concat([FIRST_AUDIO, REST_AUDIO]))).toBe(true);
    expect((await stream.result).attempts.map((a) => a.outcome)).toEqual(['success']);
    // Each complete clause is flushed as soon as it is complete (the second ends the text).
    expect(server.sent).toEqual(['chunk', 'flush_done', 'chunk', 'flush_done', 'done']);
    expect(server.received.map((m) => [m.transcript, m.continue, m.flush === true])).toEqual([
      [FIRST, true, false],
      ['', true, true],
      [REST, true, false],
      ['', true, true],
      ['', false, false],
    ]);
  });

  it('silent truncation: ElevenLabs `{"isFinal":true}` before `{"text":""}` (alone): MidStreamError caused by a truncated ProtocolError', async () => {
    const server = await elevenLabsServer();
    const { items, error } = await speakReply(elevenLabs(server.wire.url), server.heard);
    expect(concat(items.map((c) => c.data)).equals(FIRST_AUDIO)).toBe(true);
    expect(truncatedCause(error).message).toBe(
      'ElevenLabs sent {"isFinal":true} before the end of the text (truncated)',
    );
    // The end of input was never sent on the cut socket.
    expect(server.received.some((m) => m.text === '')).toBe(false);
  });

  it('silent truncation: ElevenLabs `{"isFinal":true}` before `{"text":""}`, with a backup and midStream resume: the cut clause is spoken again by the backup, then the rest', async () => {
    const server = await elevenLabsServer();
    const backup = await backupServer();
    const spoken = await speakReply(elevenLabs(server.wire.url), server.heard, backup.wire.url);
    await expectResumedByBackup(spoken, backup.inputs, server.later);
  });
  it('silent truncation: Cartesia STT `done` before voxroute sent `close` (audio still to come): MidStreamError caused by a truncated ProtocolError', async () => {
    const frames: string[] = [];
    const server = await wsServer((ws: WebSocket) => {
      let answered = false;
      ws.on('message', (data, isBinary) => {
        frames.push(isBinary ? 'audio' : String(data));
        if (!isBinary || answered) return;
        answered = true;
        ws.send(JSON.stringify({ type: 'transcript', request_id: 'r-1', text: 'Hello', is_final: true }));
        ws.send(JSON.stringify({ type: 'done', request_id: 'r-1' }));
        afterRead(ws, micGate.resolve);
      });
    });
    const micGate = signal();
    async function* mic(): AsyncGenerator<Uint8Array> {
      yield new Uint8Array(3200);
      await micGate.promise;
      yield new Uint8Array(3200);
    }
    const r = router({
      providers: { p: { kind: 'cartesia', baseUrl: server.url, apiKey: 'sk_car_truncation', stt: {} } },
      routes: { stt: { providers: ['p'], strategy: 'priority' } },
    } as RouterConfig);
    const { items, error } = await drain(
      r.stt({ audio: mic(), format: { encoding: 'pcm_s16le', sampleRate: 16_000 } }),
    );
    expect(items.map((e) => [e.type, e.text])).toEqual([['final', 'Hello']]);
    expect(truncatedCause(error).message).toBe('Cartesia sent done before the end of the audio (truncated)');
    expect(frames.includes('close')).toBe(false);
  });
});
