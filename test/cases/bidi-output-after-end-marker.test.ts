/**
 * Kind: a SageMaker bidirectional stream whose output goes on after the codec's end marker
 * (`{"type":"done"}` followed by another transcript line, or a second `done`), then ends
 * cleanly, or does not end at all. The codec stopped reading at the marker, and the adapter
 * then waited for the HTTP/2 stream to close (to read a reset that may follow the body):
 * - while the response body's iterator still held the stream paused, so the rest of the body
 *   was never read and the stream never closed (found by the wire fuzz harness, test/fuzz);
 * - with no deadline, so an endpoint that keeps the stream open after the marker held the call
 *   for ever (no route deadline runs then).
 * The answer is complete at the marker: the call ends with the transcripts before it, at once
 * when the stream ends, else AFTER_END_MS after the marker (as a response stream's body left
 * open after its end marker is cut then). The h2c endpoint speaks the wire on its own
 * (node:http2, event-stream frames written in test code); the router runs on a fake clock, so
 * no deadline ends a hang.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createRouter, type TranscriptEvent } from '../../src/index.js';
import { AFTER_END_MS } from '../../src/transport/drain-rest.js';
import { quiet, trackServerSockets } from '../faults/wire/quiet.js';
import { deferred, trackClientSockets } from '../faults/wire/scope.js';
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

describe('bidirectional output left open after the end marker: the call ends AFTER_END_MS after it', () => {
  it('{"type":"done"}, then no END_STREAM: complete at 1000 ms on the router clock, not at 999', async () => {
    const clientSockets = trackClientSockets();
    const serverSockets = trackServerSockets();
    const written = deferred();
    const url = await h2cEndpoint((stream) => {
      stream.resume();
      stream.on('end', async () => {
        stream.respond({ ':status': 200, 'content-type': 'application/vnd.amazon.eventstream' });
        for (const part of [
          line({ type: 'final', text: 'hello', start: 0, end: 0.02 }),
          line({ type: 'done' }),
        ])
          await new Promise<void>((resolve) => stream.write(part, () => resolve()));
        written.resolve(); // and the stream stays open
      });
    });
    const clock = new FakeClock();
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
      { clock },
    );
    try {
      const events: string[] = [];
      let ended = false;
      const call = (async () => {
        for await (const event of router.stt({
          audio: (async function* () {
            yield AUDIO;
          })(),
          format: { encoding: 'pcm_s16le', sampleRate: 16_000 },
        }))
          events.push(`${event.type} ${event.text}`);
        ended = true;
      })();
      // Everything the endpoint wrote was read and acted on: only the wait after the marker is left.
      await quiet(written.promise, clientSockets.sockets, serverSockets.sockets);
      expect(events).toEqual(['final hello']);
      clock.advance(AFTER_END_MS - 1);
      await nextTurn();
      await nextTurn();
      expect(ended).toBe(false);
      clock.advance(1);
      let timer: NodeJS.Timeout | undefined;
      const settled = await Promise.race([
        call.then(() => 'ended'),
        new Promise<string>((resolve) => {
          timer = setTimeout(() => resolve('still waiting 5 s after the grace'), 5_000);
        }),
      ]);
      clearTimeout(timer);
      expect(settled).toBe('ended');
      expect(events).toEqual(['final hello']);
    } finally {
      clientSockets.stop();
      serverSockets.stop();
      await router.close();
    }
  });
});
