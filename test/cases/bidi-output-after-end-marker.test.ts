/**
 * Kind: a SageMaker bidirectional stream whose output goes on after the codec's end marker
 * (`{"type":"done"}` followed by another transcript line, or a second `done`), then ends
 * cleanly. The codec stopped reading at the marker, and the adapter then waited for the HTTP/2
 * stream to close while the response body's iterator still held it paused: the rest of the body
 * was never read, the stream never closed, and the call hung until the attempt's total deadline
 * (forever without one) although the provider had said all it would. Found by the wire fuzz
 * harness (test/fuzz). The answer is complete at the marker: the call ends with the
 * transcripts before it. The h2c endpoint speaks the wire on its own (node:http2, event-stream
 * frames written in test code); the router runs on a fake clock, so no deadline ends a hang.
 */
import { describe, expect, it } from 'vitest';
import { createRouter, type TranscriptEvent } from '../../src/index.js';
import { payloadPart } from '../reliability/wire/event-stream.js';
import { h2cEndpoint } from '../reliability/wire/h2c-endpoint.js';
import { FakeClock } from '../transport/fake-clock.js';
import { EXAMPLE_CREDENTIALS } from './wire/sagemaker-response.js';
import { pcmSignal } from './wire/servers.js';

const line = (value: unknown) => payloadPart(Buffer.from(`${JSON.stringify(value)}\n`));
const AUDIO = pcmSignal(1600, 16_000, 2);

/**
 * An endpoint that reads all of the input, then writes `parts` one DATA frame at a time (each
 * once the last was handed to the socket) and ends the stream cleanly.
 */
const endpoint = (parts: Buffer[]) =>
  h2cEndpoint((stream) => {
    stream.resume();
    stream.on('end', async () => {
      stream.respond({ ':status': 200, 'content-type': 'application/vnd.amazon.eventstream' });
      for (const part of parts) await new Promise<void>((resolve) => stream.write(part, () => resolve()));
      stream.end();
    });
  });

/** One STT call over the bidirectional stream at `url`: its events, or 'hang' when it has not settled 5 s after starting. */
async function transcribe(url: string): Promise<TranscriptEvent[] | 'hang'> {
  const router = createRouter(
    {
      providers: {
        a: {
          kind: 'sagemaker',
          region: 'us-east-1',
          endpointName: 'asr',
          endpointUrl: url,
          credentials: EXAMPLE_CREDENTIALS,
          stt: { payload: 'raw-pcm', sampleRate: 16_000, stream: 'bidirectional' },
        },
      },
      routes: { stt: { providers: ['a'] } },
    },
    { clock: new FakeClock() },
  );
  const events: TranscriptEvent[] = [];
  const call = (async () => {
    for await (const event of router.stt({
      audio: (async function* () {
        yield AUDIO;
      })(),
      format: { encoding: 'pcm_s16le', sampleRate: 16_000 },
    }))
      events.push(event);
    return events;
  })();
  let timer: NodeJS.Timeout | undefined;
  const bounded = new Promise<'hang'>((resolve) => {
    timer = setTimeout(() => resolve('hang'), 5_000);
  });
  try {
    return await Promise.race([call, bounded]);
  } finally {
    clearTimeout(timer);
    await router.close();
    await call.catch(() => {});
  }
}

const texts = (events: TranscriptEvent[] | 'hang') =>
  events === 'hang' ? 'hang' : events.map((e) => `${e.type} ${e.text}`);

describe('bidirectional output after the end marker: the call ends at the marker', () => {
  it('a transcript line after {"type":"done"}', async () => {
    const url = await endpoint([
      line({ type: 'final', text: 'hello', start: 0, end: 0.02 }),
      line({ type: 'done' }),
      line({ type: 'final', text: 'world', start: 0.02, end: 0.04 }),
    ]);
    expect(texts(await transcribe(url))).toEqual(['final hello']);
  });

  it('{"type":"done"} twice', async () => {
    const url = await endpoint([
      line({ type: 'final', text: 'hello', start: 0, end: 0.02 }),
      line({ type: 'final', text: 'world', start: 0.02, end: 0.04 }),
      line({ type: 'done' }),
      line({ type: 'done' }),
    ]);
    expect(texts(await transcribe(url))).toEqual(['final hello', 'final world']);
  });
});
