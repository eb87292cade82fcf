/**
 * End of speech from the STT provider's endpointing: a voice app keeps its microphone open, so
 * the caller's audio iterator never ends; the turn must reply once Deepgram says the utterance
 * ended (a final with `speech_final: true`, or `UtteranceEnd`), stop sending audio to STT, and
 * leave the microphone open with no chunk lost. Deepgram, the chat server and the speech server
 * are loopback servers of this test speaking the wire on their own (ws, node:http).
 */
import { describe, expect, it } from 'vitest';
import { type TurnEvent, voiceTurn } from '../../src/index.js';
import { deferred } from '../helpers/deferred.js';
import {
  chatAnswer,
  concat,
  httpServer,
  pcmSignal,
  readBody,
  recordingSpeechServer,
  router,
  wsServer,
} from './wire/servers.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
/** 100 ms of 16 kHz PCM s16le. */
const CHUNK = 3_200;
const REPLY = 'Your table is booked.';
const AUDIO = pcmSignal(2_400, 24_000, 5);
const KEY = ['test', 'key'].join('-');

/**
 * A microphone: the test pushes 100 ms chunks (every byte `value`); it never ends on its own.
 * `returned` tells whether its iterator was returned (its `finally` ran).
 */
class Mic implements AsyncIterable<Uint8Array> {
  readonly #queue: Uint8Array[] = [];
  #wake: (() => void) | undefined;
  returned = false;
  push(value: number, count = 1): void {
    for (let i = 0; i < count; i++) this.#queue.push(new Uint8Array(CHUNK).fill(value));
    this.#wake?.();
  }
  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    try {
      for (;;) {
        const next = this.#queue.shift();
        if (next) yield next;
        else await new Promise<void>((resolve) => (this.#wake = resolve));
      }
    } finally {
      this.returned = true;
    }
  }
}

/** A final `Results` message of Deepgram's wire (times in seconds). */
const final = (transcript: string, start: number, duration: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: 'Results',
    channel_index: [0, 1],
    start,
    duration,
    is_final: true,
    speech_final: false,
    from_finalize: false,
    channel: { alternatives: [{ transcript, confidence: 0.99, words: [] }] },
    ...extra,
  });

/**
 * A Deepgram `/v1/listen` server: once 600 ms of audio arrived it sends `onSpeech` (the
 * utterance's messages); Finalize gets `onFinalize` (default: an empty final from_finalize);
 * CloseStream gets Metadata and a normal close. Records the audio bytes and text messages.
 */
async function deepgram(
  onSpeech: string[],
  onFinalize: string[] = [final('', 0.6, 0, { from_finalize: true })],
) {
  const session = { bytes: 0, texts: [] as string[], urls: [] as string[] };
  const closed = deferred();
  const wire = await wsServer((ws, req) => {
    session.urls.push(req.url ?? '');
    let spoke = false;
    ws.on('message', (data, binary) => {
      if (binary) {
        session.bytes += (data as Buffer).byteLength;
        if (!spoke && session.bytes >= 6 * CHUNK) {
          spoke = true;
          for (const m of onSpeech) ws.send(m);
        }
        return;
      }
      const text = String(data);
      session.texts.push(text);
      const type = (JSON.parse(text) as { type: string }).type;
      if (type === 'Finalize') for (const m of onFinalize) ws.send(m);
      if (type === 'CloseStream') {
        ws.send(JSON.stringify({ type: 'Metadata', request_id: 'r1', duration: session.bytes / 32_000 }));
        ws.close(1000);
      }
    });
    ws.on('close', () => closed.resolve());
  });
  return { wire, session, closed: closed.promise };
}

/** An OpenAI chat server answering REPLY; records each request's messages. */
async function chatServer() {
  const asked: Array<Array<{ role: string; content: string }>> = [];
  const wire = await httpServer(async (req, res) => {
    asked.push(
      (JSON.parse((await readBody(req)).toString()) as { messages: (typeof asked)[number] }).messages,
    );
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(chatAnswer(REPLY));
  });
  return { wire, asked };
}

async function setup(dgUrl: string, stt: Record<string, unknown> = {}) {
  const chat = await chatServer();
  const speech = await recordingSpeechServer(AUDIO);
  const r = router({
    providers: {
      dg: { kind: 'deepgram', baseUrl: dgUrl, apiKey: KEY, stt: { model: 'nova-3', ...stt } },
      llm: { kind: 'openai-compatible', baseUrl: `${chat.wire.url}/v1`, chat: { models: { fast: 'm' } } },
      voice: { kind: 'openai-compatible', baseUrl: `${speech.wire.url}/v1`, tts: { voices: { agent: 'x' } } },
    },
    routes: {
      stt: { providers: ['dg'] },
      chat: { providers: ['llm'] },
      tts: { providers: ['voice'], firstChunkTimeoutMs: false },
    },
  });
  return { router: r, chat, speech };
}

/** Runs a turn over `mic` to its end; the events as short strings, the audio, the result. */
async function runTurn(r: Awaited<ReturnType<typeof setup>>['router'], mic: Mic) {
  const turn = voiceTurn(r, {
    audio: mic,
    format: FORMAT,
    messages: [{ role: 'system', content: 'You book tables.' }],
    model: 'fast',
    voice: 'agent',
  });
  const events: TurnEvent[] = [];
  for await (const event of turn) events.push(event);
  return { turn, events, result: await turn.result };
}

const transcriptsOf = (events: TurnEvent[]) =>
  events.flatMap((e) => (e.type === 'transcript' ? [e.event] : []));
const audioOf = (events: TurnEvent[]) =>
  concat(events.flatMap((e) => (e.type === 'audio' ? [e.chunk.data] : [])));

describe('voiceTurn: end of speech from the STT endpoint while the microphone stays open', () => {
  it('replies at speech_final: chat gets the transcript, TTS audio arrives, the mic is left open and nothing is lost', async () => {
    const dg = await deepgram([
      final('Book a table', 0, 0.3),
      final('for two.', 0.3, 0.3, { speech_final: true }),
    ]);
    const { router: r, chat, speech } = await setup(dg.wire.url);
    const mic = new Mic();
    mic.push(1, 6); // 600 ms of speech; the mic then stays open with nothing more
    const { turn, events, result } = await runTurn(r, mic);

    expect(transcriptsOf(events)).toEqual([
      { type: 'final', text: 'Book a table', startMs: 0, endMs: 300, confidence: 0.99 },
      { type: 'final', text: 'for two.', startMs: 300, endMs: 600, confidence: 0.99, endOfSpeech: true },
    ]);
    expect(result.transcript).toBe('Book a table for two.');
    expect(chat.asked).toEqual([
      [
        { role: 'system', content: 'You book tables.' },
        { role: 'user', content: 'Book a table for two.' },
      ],
    ]);
    expect(result.reply).toBe(REPLY);
    expect(speech.inputs).toEqual([REPLY]);
    expect(audioOf(events).equals(AUDIO)).toBe(true);
    // In order: the transcripts, the reply, its audio (one or more chunks).
    expect(events.map((e) => e.type).filter((type, i, all) => all[i - 1] !== type)).toEqual([
      'transcript',
      'reply-delta',
      'audio',
    ]);

    // The STT stage's audio ended at the endpoint: Finalize, then CloseStream, after the 600 ms heard.
    await dg.closed;
    expect(dg.session.bytes).toBe(6 * CHUNK);
    expect(dg.session.texts.map((t) => (JSON.parse(t) as { type: string }).type)).toEqual([
      'Finalize',
      'CloseStream',
    ]);
    // End of speech is the endpoint's final; first audio is measured from there.
    const t = result.timeline;
    expect(t.endOfSpeechMs).toBe(t.finalTranscriptMs);
    expect(t.firstAudioMs).toBeGreaterThanOrEqual(t.endOfSpeechMs);
    expect(result.stages.stt.provider).toBe('dg');
    expect(result.stages.tts?.provider).toBe('voice');

    // The microphone was never returned, and its next chunk (read in flight at the endpoint)
    // comes first from remainingAudio, for the next turn.
    expect(mic.returned).toBe(false);
    mic.push(7);
    mic.push(8);
    const rest: Uint8Array[] = [];
    for await (const chunk of turn.remainingAudio) {
      rest.push(chunk as Uint8Array);
      if (rest.length === 2) break;
    }
    expect(rest.map((c) => [c.byteLength, c[0], c[CHUNK - 1]])).toEqual([
      [CHUNK, 7, 7],
      [CHUNK, 8, 8],
    ]);
    expect(mic.returned).toBe(true);
  });

  it('UtteranceEnd after finals without speech_final ends the speech with a marker final (empty text)', async () => {
    const dg = await deepgram([
      final('Book a table', 0, 0.3),
      final('for two.', 0.3, 0.3),
      JSON.stringify({ type: 'UtteranceEnd', channel: [0, 1], last_word_end: 0.58 }),
    ]);
    const { router: r, chat } = await setup(dg.wire.url, { utteranceEndMs: 1000 });
    const mic = new Mic();
    mic.push(1, 6);
    const { events, result } = await runTurn(r, mic);

    expect(transcriptsOf(events)).toEqual([
      { type: 'final', text: 'Book a table', startMs: 0, endMs: 300, confidence: 0.99 },
      { type: 'final', text: 'for two.', startMs: 300, endMs: 600, confidence: 0.99 },
      { type: 'final', text: '', endOfSpeech: true },
    ]);
    expect(result.transcript).toBe('Book a table for two.');
    expect(chat.asked.map((m) => m.at(-1))).toEqual([{ role: 'user', content: 'Book a table for two.' }]);
    expect(audioOf(events).equals(AUDIO)).toBe(true);
    expect(dg.session.urls[0]).toContain('interim_results=true&utterance_end_ms=1000');
    expect(mic.returned).toBe(false);
  });

  it('an endpoint after the audio ended changes nothing: every final of the audio is the transcript', async () => {
    // Both finals answer Finalize, which the adapter sends once the caller's audio has ended.
    const dg = await deepgram(
      [],
      [
        final('Book a table.', 0, 0.3, { speech_final: true, from_finalize: true }),
        final('For two.', 0.3, 0.3, { speech_final: true, from_finalize: true }),
      ],
    );
    const { router: r, chat } = await setup(dg.wire.url);
    async function* pushToTalk(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 6; i++) yield new Uint8Array(CHUNK).fill(1);
    }
    const turn = voiceTurn(r, {
      audio: pushToTalk(),
      format: FORMAT,
      messages: [],
      model: 'fast',
      voice: 'agent',
    });
    const events: TurnEvent[] = [];
    for await (const event of turn) events.push(event);
    const result = await turn.result;
    expect(transcriptsOf(events).map((e) => [e.text, e.endOfSpeech])).toEqual([
      ['Book a table.', true],
      ['For two.', true],
    ]);
    expect(result.transcript).toBe('Book a table. For two.');
    expect(chat.asked).toEqual([[{ role: 'user', content: 'Book a table. For two.' }]]);
    expect(result.timeline.endOfSpeechMs).toBeLessThan(result.timeline.finalTranscriptMs);
    expect(audioOf(events).equals(AUDIO)).toBe(true);
  });

  it('a final flushed after the endpoint is shown but is not part of the transcript chat got', async () => {
    const dg = await deepgram(
      [final('Book a table for two.', 0, 0.6, { speech_final: true })],
      [final('Wait', 0.6, 0.0, { from_finalize: true })],
    );
    const { router: r, chat } = await setup(dg.wire.url);
    const mic = new Mic();
    mic.push(1, 6);
    const { events, result } = await runTurn(r, mic);

    expect(transcriptsOf(events).map((e) => [e.text, e.endOfSpeech])).toEqual([
      ['Book a table for two.', true],
      ['Wait', undefined],
    ]);
    expect(result.transcript).toBe('Book a table for two.');
    expect(chat.asked.map((m) => m.at(-1))).toEqual([{ role: 'user', content: 'Book a table for two.' }]);
    expect(audioOf(events).equals(AUDIO)).toBe(true);
  });
});
