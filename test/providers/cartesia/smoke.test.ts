import { afterEach, describe, expect, it } from 'vitest';
import { mockCartesiaAudio } from '../../../src/testing/cartesia/index.js';
import { collect, concat, type Loopback, startLoopback, textPieces } from './helpers.js';

let loop: Loopback | undefined;
afterEach(async () => {
  await loop?.close();
  loop = undefined;
});

describe('smoke', () => {
  it('bytes', async () => {
    loop = await startLoopback();
    const adapter = loop.adapter();
    const format = { encoding: 'mulaw', sampleRate: 8000 } as const;
    const chunks = await collect(
      adapter.tts!.synthesize({ text: 'Hi there.', voice: 'v1', format }, loop.attempt()),
    );
    expect(concat(chunks.map((c) => c.data))).toEqual(mockCartesiaAudio('Hi there.', format));
  });
  it('sse', async () => {
    loop = await startLoopback();
    const adapter = loop.adapter({ tts: { model: 'sonic-3', transport: 'sse' } });
    const format = { encoding: 'pcm_s16le', sampleRate: 24000 } as const;
    const chunks = await collect(
      adapter.tts!.synthesize({ text: 'Hi there.', voice: 'v1', format }, loop.attempt()),
    );
    expect(concat(chunks.map((c) => c.data))).toEqual(mockCartesiaAudio('Hi there.', format));
    console.log(chunks.map((c) => c.words));
  });
  it('ws', async () => {
    loop = await startLoopback();
    const adapter = loop.adapter({ tts: { model: 'sonic-3', transport: 'websocket' } });
    const format = { encoding: 'pcm_s16le', sampleRate: 24000 } as const;
    const chunks = await collect(
      adapter.tts!.synthesize({ text: textPieces(['Hi ', 'there.']), voice: 'v1', format }, loop.attempt()),
    );
    expect(concat(chunks.map((c) => c.data))).toEqual(mockCartesiaAudio('Hi there.', format));
    console.log(
      chunks.map((c) => c.words),
      loop.mock.sockets[0]?.messages,
    );
    const again = await collect(
      adapter.tts!.synthesize({ text: 'Bye.', voice: 'v1', format }, loop.attempt()),
    );
    expect(concat(again.map((c) => c.data))).toEqual(mockCartesiaAudio('Bye.', format));
    expect(loop.mock.sockets).toHaveLength(1);
  });
  it('stt', async () => {
    loop = await startLoopback({ transcript: 'Book a table.' });
    const adapter = loop.adapter();
    const format = { encoding: 'pcm_s16le', sampleRate: 16000 } as const;
    const audio = mockCartesiaAudio('x'.repeat(20), format);
    const events = await collect(
      adapter.stt!.transcribe(
        {
          audio: (async function* () {
            yield audio.subarray(0, 1000);
            yield audio.subarray(1000);
          })(),
          format,
          interim: true,
        },
        loop.attempt(),
      ),
    );
    console.log(
      JSON.stringify(events),
      loop.mock.sockets[0]?.frames.map((f) => (f.type === 'text' ? f.data : f.data.byteLength)),
    );
  });
});
