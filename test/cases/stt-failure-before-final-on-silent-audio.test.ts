/**
 * A provider failure before any final transcript is a failure, whatever the caller's audio holds:
 * with audio that is only digital silence (a muted mic: all-zero PCM), a provider that sent
 * partials and then lost its connection used to end stt() normally with attempts [a failed], b
 * never tried and the transcript '' (the "nothing left to transcribe" rule counted the silence as
 * covered). Now the next provider hears the whole audio (midStream 'replay') or the call ends
 * with MidStreamError ('error'). Silence may still end as '' when a provider says so: one that
 * answers cleanly with no transcript is a success. Servers speak OpenAI's transcription wire
 * (multipart upload, SSE answer) on their own over loopback.
 */
import { describe, expect, it } from 'vitest';
import { MidStreamError, type RouterConfig } from '../../src/index.js';
import {
  drain,
  httpServer,
  multipart,
  pcmSignal,
  pieces,
  readBody,
  router,
  sseFrames,
  wavData,
  wsServer,
} from './wire/servers.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000 } as const;
/** One second of digital silence. */
const SILENCE = Buffer.alloc(32_000);
const WORDS = ['what', 'time', 'is', 'it'];

type Script = 'partials-then-drop' | 'transcript' | 'empty-transcript';

/** An OpenAI-style streaming transcription server; records each upload's PCM data. */
async function transcriber(script: Script) {
  const uploads: Buffer[] = [];
  const wire = await httpServer(async (req, res) => {
    const file = multipart(req.headers['content-type'], await readBody(req)).get('file');
    uploads.push(wavData(file as Buffer).data);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    if (script === 'empty-transcript') {
      res.end(sseFrames([{ type: 'transcript.text.done', text: '' }]));
      return;
    }
    res.write(sseFrames(WORDS.map((w) => ({ type: 'transcript.text.delta', delta: `${w} ` }))));
    if (script === 'partials-then-drop') {
      // Partials out, then the connection dies before transcript.text.done.
      setImmediate(() => res.destroy());
      return;
    }
    res.end(sseFrames([{ type: 'transcript.text.done', text: 'what time is it' }]));
  });
  return { wire, uploads };
}

function config(a: string, b: string, midStream: 'replay' | 'error'): RouterConfig {
  const stt = (url: string) => ({
    kind: 'openai-compatible' as const,
    baseUrl: `${url}/v1`,
    stt: { model: 'w' },
  });
  return {
    providers: { a: stt(a), b: stt(b) },
    routes: { stt: { providers: ['a', 'b'], strategy: 'priority', midStream, firstChunkTimeoutMs: false } },
  };
}

describe('stt failure before any final, on silent audio', () => {
  it("midStream 'replay': a's partials then a dropped connection fall back to b, which hears the whole audio", async () => {
    const a = await transcriber('partials-then-drop');
    const b = await transcriber('transcript');
    const stream = router(config(a.wire.url, b.wire.url, 'replay')).stt({
      audio: pieces(SILENCE, 640),
      format: FORMAT,
      interim: true,
    });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(items.filter((e) => e.type === 'final').map((e) => e.text)).toEqual(['what time is it']);
    const result = await stream.result;
    expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'failed'],
      ['b', 'success'],
    ]);
    expect(result.provider).toBe('b');
    expect(b.uploads).toHaveLength(1);
    expect(b.uploads[0]!.equals(SILENCE)).toBe(true);
    expect(a.uploads[0]!.equals(SILENCE)).toBe(true);
  });

  it("midStream 'error': the same failure ends the call with MidStreamError, b never contacted", async () => {
    const a = await transcriber('partials-then-drop');
    const b = await transcriber('transcript');
    const stream = router(config(a.wire.url, b.wire.url, 'error')).stt({
      audio: pieces(SILENCE, 640),
      format: FORMAT,
      interim: true,
    });
    const { items, error } = await drain(stream);
    expect(MidStreamError.isInstance(error)).toBe(true);
    expect((error as MidStreamError).provider).toBe('a');
    expect(items.map((e) => e.type)).toEqual(['partial', 'partial', 'partial', 'partial']);
    expect(items.map((e) => e.text)).toEqual(['what', 'what time', 'what time is', 'what time is it']);
    await expect(stream.result).rejects.toBe(error);
    expect(b.wire.hits).toBe(0);
  });

  it("a provider that answers silent audio cleanly with no transcript is a success with '': b never contacted", async () => {
    const a = await transcriber('empty-transcript');
    const b = await transcriber('transcript');
    const stream = router(config(a.wire.url, b.wire.url, 'replay')).stt({
      audio: pieces(SILENCE, 640),
      format: FORMAT,
    });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(items.filter((e) => e.type === 'final' && e.text !== '')).toEqual([]);
    const result = await stream.result;
    expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([['a', 'success']]);
    expect(b.wire.hits).toBe(0);
  });
});

/**
 * A Deepgram that answers CloseStream with a final over the first `finalSeconds` it heard, then
 * (`partialAfter`) a partial, then closes 1011 (a failure); records the bytes it heard.
 */
async function deepgram(finalSeconds: number, partialAfter: boolean) {
  const heard: Buffer[] = [];
  const server = await wsServer((ws) => {
    ws.on('message', (data, binary) => {
      if (binary) {
        heard.push(data as Buffer);
        return;
      }
      if ((JSON.parse(String(data)) as { type: string }).type !== 'CloseStream') return;
      const results = (isFinal: boolean, start: number, duration: number, transcript: string) =>
        JSON.stringify({
          type: 'Results',
          is_final: isFinal,
          speech_final: isFinal,
          start,
          duration,
          channel: { alternatives: [{ transcript, confidence: 1 }] },
        });
      ws.send(results(true, 0, finalSeconds, 'hello'));
      if (partialAfter) ws.send(results(false, finalSeconds, 0.25, 'and'));
      ws.close(1011, 'internal server error');
    });
  });
  return { url: server.url, heard: () => Buffer.concat(heard), connections: () => server.connections };
}

describe('stt failure with a partial pending after the last final, on silent audio', () => {
  const SPEECH = pcmSignal(8000, 16_000, 3); // 500 ms
  const AUDIO = Buffer.concat([SPEECH, Buffer.alloc(16_000)]); // then 500 ms of digital silence

  it("a partial after the last final, then a failure: b hears the audio since that final (midStream 'replay')", async () => {
    const a = await deepgram(0.5, true);
    const b = await transcriber('transcript');
    const stream = router({
      providers: {
        a: { kind: 'deepgram', baseUrl: a.url, apiKey: 'test-key', stt: { model: 'nova-3' } },
        b: { kind: 'openai-compatible', baseUrl: `${b.wire.url}/v1`, stt: { model: 'w' } },
      },
      routes: {
        stt: { providers: ['a', 'b'], strategy: 'priority', midStream: 'replay', firstChunkTimeoutMs: false },
      },
    }).stt({ audio: pieces(AUDIO, 3200), format: FORMAT, interim: true });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(items.map((e) => [e.type, e.text])).toEqual([
      ['final', 'hello'],
      ['partial', 'and'],
      ['partial', 'what'],
      ['partial', 'what time'],
      ['partial', 'what time is'],
      ['partial', 'what time is it'],
      ['final', 'what time is it'],
    ]);
    const result = await stream.result;
    expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'failed'],
      ['b', 'success'],
    ]);
    expect(a.heard().equals(AUDIO)).toBe(true);
    expect(b.uploads).toHaveLength(1);
    expect(b.uploads[0]!.equals(AUDIO.subarray(SPEECH.byteLength))).toBe(true);
  });

  it('with no partial pending, a failure after the last final over trailing silence still ends with the transcript', async () => {
    const a = await deepgram(0.5, false);
    const b = await transcriber('transcript');
    const stream = router({
      providers: {
        a: { kind: 'deepgram', baseUrl: a.url, apiKey: 'test-key', stt: { model: 'nova-3' } },
        b: { kind: 'openai-compatible', baseUrl: `${b.wire.url}/v1`, stt: { model: 'w' } },
      },
      routes: { stt: { providers: ['a', 'b'], strategy: 'priority', midStream: 'replay' } },
    }).stt({ audio: pieces(AUDIO, 3200), format: FORMAT, interim: true });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(items.map((e) => [e.type, e.text])).toEqual([['final', 'hello']]);
    // The failure is charged to a; nothing is left for another provider (no fallback).
    expect((await stream.result).attempts.map((x) => [x.provider, x.outcome])).toEqual([['a', 'failed']]);
    expect(b.wire.hits).toBe(0);
  });
});
