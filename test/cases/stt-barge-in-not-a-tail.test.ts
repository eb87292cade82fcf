/**
 * A barge-in while a streaming STT provider has sent no transcript yet (the user is still
 * talking) is not a latency sample of the provider: such a provider answers when the speaker
 * pauses, so the time it waited was the speaker's. Before the fix the cancelled attempt was
 * recorded as a lower bound of its time to first chunk: six seconds of speech cut by a barge-in
 * counted as a tail call of Deepgram (its tail share went from the prior to about 0.19 after
 * three calls), which the latency strategy and the hedge delay then held against it. Deepgram,
 * chat and TTS are this test's own loopback servers (ws, node:http); the router's clock is the
 * test's, so the speech lasts what the test says.
 */
import { describe, expect, it } from 'vitest';
import { AbortError, createRouter, type ProviderStats, voiceTurn } from '../../src/index.js';
import { deferred } from '../helpers/deferred.js';
import { ManualClock } from '../routing/helpers.js';
import { answerChat, httpServer, wsServer } from './wire/servers.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
const CHUNK = 3_200;

describe('a barge-in before the first transcript of a streaming STT provider', () => {
  it('records no latency sample: its score and tail model are what they were', async () => {
    const sessions: Array<ReturnType<typeof deferred<void>>> = [];
    // Deepgram: sessions 1 and 2 answer CloseStream with a final; session 3 never answers.
    const dg = await wsServer((ws, _req, n) => {
      let bytes = 0;
      ws.on('message', (data, binary) => {
        if (binary) {
          bytes += (data as Buffer).byteLength;
          sessions[n - 1]?.resolve();
          return;
        }
        if ((JSON.parse(String(data)) as { type: string }).type !== 'CloseStream' || n > 2) return;
        ws.send(
          JSON.stringify({
            type: 'Results',
            start: 0,
            duration: bytes / 32_000,
            is_final: true,
            speech_final: true,
            channel: { alternatives: [{ transcript: 'book a table', confidence: 1 }] },
          }),
        );
        ws.send(JSON.stringify({ type: 'Metadata', request_id: `r${n}` }));
        ws.close(1000);
      });
    });
    const chat = await httpServer((_req, res) => answerChat(res, 'Sure.'));
    const speech = await httpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/pcm' });
      res.end(Buffer.alloc(960));
    });
    const clock = new ManualClock();
    const r = createRouter(
      {
        providers: {
          dg: {
            kind: 'deepgram',
            baseUrl: dg.url,
            apiKey: ['test', 'key'].join('-'),
            stt: { model: 'nova-3' },
          },
          llm: { kind: 'openai-compatible', baseUrl: `${chat.url}/v1`, chat: { models: { fast: 'm' } } },
          voice: { kind: 'openai-compatible', baseUrl: `${speech.url}/v1`, tts: { voices: { agent: 'x' } } },
        },
        routes: { stt: { providers: ['dg'] }, chat: { providers: ['llm'] }, tts: { providers: ['voice'] } },
      },
      { clock },
    );
    /** 300 ms of audio, then `speakingMs` on the router's clock; then the audio ends, or waits for `until`. */
    async function* talk(speakingMs: number, until?: Promise<void>): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 3; i++) yield new Uint8Array(CHUNK);
      clock.advance(speakingMs);
      if (until) await until;
    }
    const turn = (audio: AsyncIterable<Uint8Array>, signal?: AbortSignal) =>
      voiceTurn(r, {
        audio,
        format: FORMAT,
        messages: [],
        model: 'fast',
        voice: 'agent',
        ...(signal ? { signal } : {}),
      });
    const stt = (): ProviderStats => r.stats().providers.find((p) => p.capability === 'stt')!;
    try {
      for (let i = 0; i < 2; i++) {
        sessions.push(deferred());
        for await (const _event of turn(talk(400))) {
          // two turns answered 400 ms after the audio began (the first one a first call)
        }
      }
      const before = stt();
      expect([before.samples, before.ewmaMs]).toEqual([2, 400]);

      sessions.push(deferred());
      const bargeIn = new AbortController();
      const talking = turn(talk(6_000, new Promise<void>(() => {})), bargeIn.signal);
      const ended = (async () => {
        for await (const _event of talking) throw new Error('no transcript was sent');
      })().catch((e: unknown) => e);
      await sessions[2]!.promise;
      bargeIn.abort();
      expect(await ended).toBeInstanceOf(AbortError);

      const after = stt();
      expect(after.attempts).toBe(before.attempts + 1);
      expect({ ...after, attempts: 0, hedgeAfterMs: 0 }).toEqual({ ...before, attempts: 0, hedgeAfterMs: 0 });
    } finally {
      await r.close();
    }
  });
});
