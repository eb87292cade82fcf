/**
 * A look-ahead sentence whose request fails part-way before any of its audio was played is asked
 * once more of the same provider, its buffered audio dropped. Its word timings must go with that
 * audio: they are what a later cut of the sentence (midStream 'resume') resumes from, after its
 * last word fully heard. The failed request's words were kept before the retry's, so the
 * sentence's words read "We, We will see": the second "We" was not found after the first, the
 * words were taken as not matching the text, and the backup spoke the whole sentence again,
 * its first 600 ms heard twice. Cartesia (/tts/sse, word timestamps) and the OpenAI-compatible
 * backup are this test's own loopback servers.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { AudioChunk } from '../../src/index.js';
import { httpServer, readBody, recordingSpeechServer, router } from '../cases/wire/servers.js';
import { ttsRouteWithBackup } from '../cases/wire/tts-route.js';
import { deferred } from '../helpers/deferred.js';

const FIRST = 'Your table is booked.';
const SECOND = 'We will see you at eight tonight.';
const FORMAT = { encoding: 'pcm_s16le', sampleRate: 24_000 } as const;
/** `ms` of 24 kHz PCM s16le filled with `fill`. */
const pcm = (ms: number, fill: number) => Buffer.alloc(48 * ms, fill);

function event(res: ServerResponse, data: unknown, then?: () => void): void {
  res.write(`data: ${JSON.stringify(data)}\n\n`, then);
}
const chunk = (audio: Buffer) => ({
  type: 'chunk',
  data: audio.toString('base64'),
  done: false,
  status_code: 206,
});
const timestamps = (words: string[]) => ({
  type: 'timestamps',
  done: false,
  status_code: 206,
  word_timestamps: { words, start: words.map((_, i) => i * 0.2), end: words.map((_, i) => (i + 1) * 0.2) },
});

describe('TTS: a look-ahead sentence asked again after failing part-way unplayed', () => {
  it('resumes a later cut after its last word heard in the retry, not from its start', async () => {
    const retried = deferred();
    const played = deferred();
    let calls = 0;
    const cartesia = await httpServer(async (req, res) => {
      const { transcript } = JSON.parse((await readBody(req)).toString()) as { transcript: string };
      const call = ++calls;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (transcript === FIRST) {
        // Plays while the second sentence's first request fails: the rest once it is retried.
        event(res, chunk(pcm(100, 0x11)));
        await retried.promise;
        event(res, chunk(pcm(100, 0x11)));
        event(res, { type: 'done', done: true, status_code: 200 });
        res.end();
      } else if (call === 2) {
        // The look-ahead: its first word and 100 ms of audio, then the connection is lost.
        event(res, timestamps(['We']));
        event(res, chunk(pcm(100, 0x22)), () => res.socket?.destroy());
      } else {
        retried.resolve();
        // The retry: "We will see" (600 ms), then lost once the caller has had that audio.
        event(res, timestamps(['We', 'will', 'see']));
        event(res, chunk(pcm(600, 0x33)));
        await played.promise;
        res.socket?.destroy();
      }
    });
    const backup = await recordingSpeechServer(pcm(100, 0x44));
    const r = router(
      ttsRouteWithBackup(
        'c',
        {
          kind: 'cartesia',
          baseUrl: cartesia.url,
          apiKey: ['sk_car', 'test'].join('_'),
          tts: { voices: { agent: 'v' }, transport: 'sse' },
        },
        `${backup.wire.url}/v1`,
        { midStream: 'resume' },
      ),
    );
    const chunks: AudioChunk[] = [];
    const call = r.tts({ text: `${FIRST} ${SECOND}`, voice: 'agent', format: FORMAT });
    for await (const c of call) {
      chunks.push(c);
      if (c.data[0] === 0x33) played.resolve();
    }
    // The backup speaks what follows "see", the retry's last word heard.
    expect(backup.inputs).toEqual(['you at eight tonight.']);
    expect(chunks.map((c) => [c.data[0], c.data.byteLength / 48])).toEqual([
      [0x11, 100],
      [0x11, 100],
      [0x33, 600],
      [0x44, 100],
    ]);
    expect((await call.result).attempts.map((a) => [a.provider, a.outcome])).toEqual([
      ['c', 'failed'],
      ['b', 'success'],
    ]);
  });
});
