import { DeepgramClient } from '@deepgram/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createDeepgramMock,
  type MockServer,
  mockDeepgramSpeech,
  startMockServer,
  syntheticAudio,
} from '../../../src/testing/index.js';
import { expectSameBytes } from '../helpers.js';

const KEY = 'dg-official-client-key';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * The official client pointed at the loopback mock: `environment` names the REST base
 * (`base`) and the WebSocket base (`production`) separately (DGJS `environments.ts`), so both
 * go to the mock's port.
 */
async function client() {
  const mock = createDeepgramMock({
    apiKey: KEY,
    transcript: 'Your table is booked.',
    wordMs: 200,
    inactivityTimeoutMs: 0,
  });
  server = await startMockServer({ provider: mock });
  const deepgram = new DeepgramClient({
    apiKey: KEY,
    environment: {
      base: server.url,
      production: server.url.replace('http:', 'ws:'),
      agent: server.url.replace('http:', 'ws:'),
      agentRest: server.url,
    },
  });
  return { mock, deepgram };
}

describe('@deepgram/sdk against the Deepgram mock', () => {
  it('speak.v1.audio.generate streams the audio the mock makes, with options in the query', async () => {
    const { mock, deepgram } = await client();
    const response = await deepgram.speak.v1.audio.generate({
      text: 'Your table is booked.',
      model: 'aura-2-thalia-en',
      encoding: 'linear16',
      sample_rate: 24000,
      container: 'none',
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    expectSameBytes(
      bytes,
      mockDeepgramSpeech('Your table is booked.', { encoding: 'pcm_s16le', sampleRate: 24000 }),
    );
    const [record] = mock.requests;
    expect(record!.body).toEqual({ text: 'Your table is booked.' });
    expect(record!.headers.authorization).toBe(`Token ${KEY}`);
    expect(Object.fromEntries(new URL(record!.url).searchParams)).toEqual({
      model: 'aura-2-thalia-en',
      encoding: 'linear16',
      sample_rate: '24000',
      container: 'none',
    });
  });

  it('listen.v1.connect completes a live transcription: Results, Finalize, CloseStream, Metadata, close 1000', async () => {
    const { mock, deepgram } = await client();
    const socket = await deepgram.listen.v1.connect({
      model: 'nova-3',
      encoding: 'linear16',
      sample_rate: 16000,
      channels: 1,
      interim_results: 'true',
      punctuate: 'true',
      Authorization: `Token ${KEY}`,
      reconnectAttempts: 0,
    });
    const messages: Array<{
      type: string;
      is_final?: boolean;
      channel?: { alternatives: Array<{ transcript: string }> };
    }> = [];
    const closed = new Promise<number>((resolve) => socket.on('close', (event) => resolve(event.code)));
    socket.on('message', (message) => messages.push(message as (typeof messages)[number]));
    socket.connect();
    await socket.waitForOpen();
    socket.sendMedia(
      syntheticAudio({ durationMs: 500, format: { encoding: 'pcm_s16le', sampleRate: 16000 } }),
    );
    socket.sendKeepAlive({ type: 'KeepAlive' });
    socket.sendMedia(
      syntheticAudio({ durationMs: 300, format: { encoding: 'pcm_s16le', sampleRate: 16000 }, seed: 1 }),
    );
    socket.sendFinalize({ type: 'Finalize' });
    socket.sendCloseStream({ type: 'CloseStream' });
    expect(await closed).toBe(1000);
    expect(
      messages.map((m) =>
        m.type === 'Results'
          ? `${m.is_final ? 'final' : 'interim'}:${m.channel!.alternatives[0]!.transcript}`
          : m.type,
      ),
    ).toEqual([
      // 500 ms: 'Your' (0-200) and 'table' (200-400) heard; 800 ms: the sentence ends.
      'interim:Your table',
      'final:Your table is booked.',
      // Finalize with nothing pending: an empty final (from_finalize).
      'final:',
      'Metadata',
    ]);
    const session = mock.sessions[0]!;
    expect(session.record.headers.authorization).toBe(`Token ${KEY}`);
    expect(session.controls).toEqual(['KeepAlive', 'Finalize', 'CloseStream']);
    expect(session.audioBytes).toBe(25600);
  });
});
