/**
 * Kind: with midStream 'resume', streamed text (an LLM's tokens, as voiceTurn() passes them) that
 * a provider fails on mid-utterance is resumed at the clause that was cut: the clauses whose
 * audio the caller already received in full are not sent to the next provider and not heard
 * again. Before, a provider that takes text as a stream (a Cartesia WebSocket context) without
 * word timestamps handed over from the first clause of its attempt, so the caller heard every
 * earlier clause twice, although Cartesia had acknowledged each with `flush_done`.
 *
 * How the router knows a clause was heard: the provider's word timestamps (Cartesia with
 * `add_timestamps`, ElevenLabs' alignment data), or the provider's own acknowledgement that a
 * clause's audio is complete (Cartesia's `flush_done`), once the audio before it reached the
 * caller; a provider taking one request per clause (HTTP) has each clause's audio end with its
 * response. The servers speak the wire on their own (ws JSON frames, base64 audio; node:http raw
 * PCM); the primary's failure is an error close (1011) or a reset body right after part of the
 * fourth clause's audio. Each test asserts the text each provider received and the caller's
 * bytes, in order.
 */
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import type { AudioChunk, ProviderConfig, Router } from '../../src/index.js';
import { answerPcm, concat, httpServer, pcmSignal, readBody, router, wsServer } from './wire/servers.js';

/** The reply as an LLM streams it: four clauses (one token each), the last one cut. */
const CLAUSES = [
  'Your table is booked for four people.',
  ' It is the one by the window.',
  ' We will see you at eight tonight.',
  ' Anything else I can do for you?',
] as const;
const CUT = 'Anything';
/** The clause cut instead, by the server that repeats an acknowledgement. */
const REPEAT_CUT = 'eight';

/** The audio of the primary's `n`-th clause (0-based): 0.1 s of PCM s16le 24 kHz. */
const clauseAudio = (n: number): Buffer => pcmSignal(2400, 24_000, n + 1);
/** What the primary sends of the clause it is cut in: the first 0.05 s of its audio. */
const cutAudio = (n: number): Buffer => clauseAudio(n).subarray(0, 2400);
/** The backup's answer to any text. */
const BACKUP_AUDIO = pcmSignal(1200, 24_000, 9);

async function* llm(): AsyncGenerator<string> {
  for (const clause of CLAUSES) yield clause;
}

/** An OpenAI speech server: answers BACKUP_AUDIO, records each request's `input`. */
async function backupServer() {
  const inputs: string[] = [];
  const wire = await httpServer(async (req, res) => {
    inputs.push((JSON.parse((await readBody(req)).toString()) as { input: string }).input);
    answerPcm(res, BACKUP_AUDIO);
  });
  return { url: wire.url, inputs };
}

/**
 * A Cartesia /tts/websocket server: each transcript with a word is answered with its clause's
 * audio (a chunk; with `timestamps`, a `timestamps` message of its words after it), each flush
 * with `flush_done` (flush_id counting from 1), the end of input with `done`. The transcript
 * holding CUT gets half its audio, then an error close (1011). Records every transcript. With
 * `repeatedAck`, the third clause is the cut one instead: its audio is held until its flush,
 * which is answered by a repeat of the second flush's `flush_done` (flush_id 2), then half the
 * clause's audio, then the error close.
 */
async function cartesiaServer(timestamps: boolean, repeatedAck = false) {
  const transcripts: string[] = [];
  const wire = await wsServer((ws: WebSocket) => {
    let spoken = 0;
    let flushes = 0;
    let atMs = 0;
    /** With `repeatedAck`: the cut clause, once its text came. */
    let held: number | undefined;
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as Record<string, unknown>;
      const send = (message: object) => ws.send(JSON.stringify({ context_id: m.context_id, ...message }));
      if (m.cancel) return;
      const transcript = typeof m.transcript === 'string' ? m.transcript : '';
      if (transcript !== '') transcripts.push(transcript);
      if (repeatedAck && transcript.includes(REPEAT_CUT)) {
        held = spoken++;
        return;
      }
      if (repeatedAck && m.flush === true && held !== undefined) {
        send({ type: 'flush_done', done: false, flush_done: true, flush_id: flushes, status_code: 206 });
        send({ type: 'chunk', data: cutAudio(held).toString('base64'), done: false, status_code: 206 });
        ws.close(1011, 'internal error');
        return;
      }
      if (transcript.trim() !== '') {
        const n = spoken++;
        if (!repeatedAck && transcript.includes(CUT)) {
          send({ type: 'chunk', data: cutAudio(n).toString('base64'), done: false, status_code: 206 });
          ws.close(1011, 'internal error');
          return;
        }
        send({ type: 'chunk', data: clauseAudio(n).toString('base64'), done: false, status_code: 206 });
        if (timestamps) {
          const words = transcript.trim().split(/\s+/);
          const step = 100 / words.length / 1000;
          const start = words.map((_, i) => atMs / 1000 + i * step);
          send({
            type: 'timestamps',
            done: false,
            status_code: 206,
            word_timestamps: { words, start, end: start.map((s) => s + step) },
          });
        }
        atMs += 100;
      }
      if (m.flush === true) {
        flushes++;
        send({ type: 'flush_done', done: false, flush_done: true, flush_id: flushes, status_code: 206 });
      }
      if (m.continue === false) send({ type: 'done', done: true, status_code: 200 });
    });
  });
  return { url: wire.url, transcripts };
}

/**
 * An ElevenLabs stream-input server: text is spoken when a message with `flush: true` or the
 * end of input (`{"text":""}`) asks for it, as one audio message (with `alignment`, 100 ms
 * spread over its characters, when `alignment` is set); the end then gets `isFinal` and a
 * close. A text holding CUT gets half its audio, then an error close (1011). Records every
 * text message but the initial `" "`.
 */
async function elevenLabsServer(alignment: boolean) {
  const texts: string[] = [];
  const wire = await wsServer((ws: WebSocket) => {
    let spoken = 0;
    let pending = '';
    let initialized = false;
    const speak = () => {
      if (pending.trim() === '') return;
      const chars = [...pending];
      const d = 100 / chars.length;
      const message: Record<string, unknown> = { audio: clauseAudio(spoken++).toString('base64') };
      if (alignment) {
        message.alignment = {
          chars,
          charStartTimesMs: chars.map((_, i) => i * d),
          charDurationsMs: chars.map(() => d),
        };
      }
      pending = '';
      ws.send(JSON.stringify(message));
    };
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as { text: string; flush?: boolean };
      if (!initialized) {
        initialized = true;
        return;
      }
      if (m.text === '') {
        speak();
        ws.send(JSON.stringify({ isFinal: true }));
        ws.close(1000);
        return;
      }
      if (m.text === ' ' && !m.flush) return; // keep-alive
      texts.push(m.text);
      if (m.text.includes(CUT)) {
        ws.send(JSON.stringify({ audio: cutAudio(spoken).toString('base64') }));
        ws.close(1011, 'internal error');
        return;
      }
      pending += m.text;
      if (m.flush) speak();
    });
  });
  return { url: wire.url, texts };
}

/**
 * An OpenAI speech server as the primary: each request (one clause) is answered with its
 * clause's audio; the one holding CUT with half of it, then its connection is destroyed.
 */
async function httpPrimary() {
  const inputs: string[] = [];
  const wire = await httpServer(async (req, res) => {
    const input = (JSON.parse((await readBody(req)).toString()) as { input: string }).input;
    const n = inputs.push(input) - 1;
    if (!input.includes(CUT)) return answerPcm(res, clauseAudio(n));
    res.writeHead(200, { 'content-type': 'audio/pcm' });
    res.write(cutAudio(n), () => res.destroy());
  });
  return { url: wire.url, inputs };
}

/** A router over `primary` then an OpenAI-compatible backup, strategy priority, midStream 'resume'. */
function routeWithBackup(primary: ProviderConfig, backupUrl: string): Router {
  return router({
    providers: {
      primary,
      backup: { kind: 'openai-compatible', baseUrl: `${backupUrl}/v1`, tts: { voices: { agent: 'alloy' } } },
    },
    routes: { tts: { providers: ['primary', 'backup'], strategy: 'priority', midStream: 'resume' } },
  });
}

/** The Cartesia WebSocket primary at `url`, with or without word timestamps. */
const cartesiaPrimary = (url: string, timestamps: boolean): ProviderConfig => ({
  kind: 'cartesia',
  baseUrl: url,
  apiKey: 'ck_test_0123456789',
  tts: { voices: { agent: 'v' }, transport: 'websocket', addTimestamps: timestamps },
});

/** Reads the call to its end: the caller's bytes, and at which chunks (byte offsets) a switch was marked. */
async function speak(r: Router) {
  const chunks: AudioChunk[] = [];
  const stream = r.tts({ text: llm(), voice: 'agent' });
  for await (const chunk of stream) chunks.push(chunk);
  const result = await stream.result;
  const switches: number[] = [];
  let at = 0;
  for (const c of chunks) {
    if (c.discontinuity) switches.push(at);
    at += c.data.byteLength;
  }
  return {
    bytes: concat(chunks.map((c) => c.data)),
    switches,
    attempts: result.attempts.map((a) => [a.provider, a.outcome]),
  };
}

/** What the caller hears when the primary is cut in the fourth clause and the backup speaks it. */
const EXPECTED = concat([clauseAudio(0), clauseAudio(1), clauseAudio(2), cutAudio(3), BACKUP_AUDIO]);
const SWITCH_AT = 3 * 4800 + 2400;

describe('resume: streamed text is resumed at the clause that was cut', () => {
  for (const timestamps of [false, true]) {
    it(`resume: streamed text ${timestamps ? 'with' : 'without'} word timestamps resumes at the cut clause (Cartesia WebSocket, flush_done per clause)`, async () => {
      const cartesia = await cartesiaServer(timestamps);
      const backup = await backupServer();
      const r = routeWithBackup(cartesiaPrimary(cartesia.url, timestamps), backup.url);
      const heard = await speak(r);
      // One context: each clause, then its flush (flush messages carry no transcript).
      expect(cartesia.transcripts).toEqual([...CLAUSES]);
      expect(backup.inputs).toEqual([CLAUSES[3].trim()]);
      expect(heard.bytes).toEqual(EXPECTED);
      expect(heard.switches).toEqual([SWITCH_AT]);
      expect(heard.attempts).toEqual([
        ['primary', 'failed'],
        ['backup', 'success'],
      ]);
    });
  }

  it('resume: a repeated flush_done (same flush_id) does not mark the cut clause heard (Cartesia WebSocket)', async () => {
    const cartesia = await cartesiaServer(false, true);
    const backup = await backupServer();
    const r = routeWithBackup(cartesiaPrimary(cartesia.url, false), backup.url);
    const heard = await speak(r);
    // The third clause was cut (half its audio heard): the backup speaks it whole, then the
    // fourth (already sent to the primary's socket, never heard from it): the primary, which
    // failed in this call, is not asked first again.
    expect(backup.inputs).toEqual([CLAUSES[2].trim(), CLAUSES[3].trim()]);
    expect(cartesia.transcripts).toEqual([...CLAUSES]);
    expect(heard.bytes).toEqual(
      concat([clauseAudio(0), clauseAudio(1), cutAudio(2), BACKUP_AUDIO, BACKUP_AUDIO]),
    );
    expect(heard.attempts).toEqual([
      ['primary', 'failed'],
      ['backup', 'success'],
    ]);
    expect(heard.switches).toEqual([2 * 4800 + 2400]);
  });

  it('resume: streamed text on ElevenLabs stream-input with alignment data resumes at the cut clause', async () => {
    const eleven = await elevenLabsServer(true);
    const backup = await backupServer();
    const r = routeWithBackup(
      {
        kind: 'elevenlabs',
        baseUrl: eleven.url,
        apiKey: 'el_test_0123456789',
        tts: { voices: { agent: 'v' }, transport: 'websocket' },
      },
      backup.url,
    );
    const heard = await speak(r);
    // Each clause with its flush, each message ending with a space; the last clause goes at its
    // last word boundary (its end would follow with the end of input).
    expect(eleven.texts.slice(0, 4)).toEqual([
      'Your table is booked for four people. ',
      ' It is the one by the window. ',
      ' We will see you at eight tonight. ',
      ' Anything else I can do for ',
    ]);
    expect(backup.inputs).toEqual([CLAUSES[3].trim()]);
    expect(heard.bytes).toEqual(EXPECTED);
    expect(heard.switches).toEqual([SWITCH_AT]);
  });

  it('resume: streamed text to a provider taking one request per clause (HTTP) resumes at the cut clause', async () => {
    const primary = await httpPrimary();
    const backup = await backupServer();
    const r = routeWithBackup(
      { kind: 'openai-compatible', baseUrl: `${primary.url}/v1`, tts: { voices: { agent: 'alloy' } } },
      backup.url,
    );
    const heard = await speak(r);
    expect(primary.inputs).toEqual(CLAUSES.map((c) => c.trim()));
    expect(backup.inputs).toEqual([CLAUSES[3].trim()]);
    expect(heard.bytes).toEqual(EXPECTED);
    expect(heard.switches).toEqual([SWITCH_AT]);
    expect(heard.attempts).toEqual([
      ['primary', 'failed'],
      ['backup', 'success'],
    ]);
  });
});
