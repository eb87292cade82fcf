/**
 * Wire gap of the Deepgram mock's `/v1/listen`: with `vad_events=true` Deepgram sends
 * `{"type":"SpeechStarted","channel":[0,1],"timestamp":<s>}` when speech begins (PROTOCOLS.md
 * 3.2; DGJS `ListenV1SpeechStarted`), the message voice apps use for barge-in. The mock ignored
 * `vad_events` and never sent it, so an app's barge-in path never ran in CI. It now sends one
 * per utterance, before that utterance's first Results, once the audio received passes the
 * start of its first word (`timestamp`: that word's start, in seconds); without `vad_events`
 * nothing changes.
 */

import { DeepgramClient } from '@deepgram/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createDeepgramMock,
  type MockServer,
  startMockServer,
  syntheticAudio,
} from '../../src/testing/index.js';

const KEY = 'dg-speech-started-key';
const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16000 } as const;

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * Runs one listen session with the official client: `query` on top of the raw-audio basics,
 * audio frames of `frameMs` each, then CloseStream; returns every message, summarised.
 */
async function listen(query: Record<string, string | number>, frameMs: number[]) {
  // 'Your' 0-200 ms, 'table' 200-400, 'is' 400-600, 'booked.' 600-800, 'See' 800-1000, ...
  const mock = createDeepgramMock({
    apiKey: KEY,
    transcript: 'Your table is booked. See you soon.',
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
  const socket = await deepgram.listen.v1.connect({
    model: 'nova-3',
    encoding: 'linear16',
    sample_rate: 16000,
    ...query,
    Authorization: `Token ${KEY}`,
    reconnectAttempts: 0,
  } as Parameters<typeof deepgram.listen.v1.connect>[0]);
  const messages: Array<Record<string, unknown>> = [];
  const closed = new Promise<number>((resolve) => socket.on('close', (event) => resolve(event.code)));
  socket.on('message', (message) => messages.push(message as unknown as Record<string, unknown>));
  socket.connect();
  await socket.waitForOpen();
  for (const [seed, ms] of frameMs.entries()) {
    socket.sendMedia(syntheticAudio({ durationMs: ms, format: FORMAT, seed }));
  }
  socket.sendCloseStream({ type: 'CloseStream' });
  expect(await closed).toBe(1000);
  const summary = messages.map((m) => {
    if (m.type !== 'Results') return m.type === 'Metadata' ? 'Metadata' : m;
    const results = m as { is_final: boolean; channel: { alternatives: Array<{ transcript: string }> } };
    return `${results.is_final ? 'final' : 'interim'}:${results.channel.alternatives[0]!.transcript}`;
  });
  return { summary, mock };
}

describe('Deepgram mock /v1/listen with vad_events=true', () => {
  it('sends SpeechStarted before each utterance’s first Results, at its first word’s start', async () => {
    const { summary, mock } = await listen(
      { interim_results: 'true', utterance_end_ms: 1000, vad_events: 'true', punctuate: 'true' },
      [500, 500, 300],
    );
    expect(summary).toEqual([
      { type: 'SpeechStarted', channel: [0, 1], timestamp: 0 },
      'interim:Your table',
      'final:Your table is booked.',
      { type: 'UtteranceEnd', channel: [0, 1], last_word_end: 0.8 },
      { type: 'SpeechStarted', channel: [0, 1], timestamp: 0.8 },
      'interim:See',
      'interim:See you',
      'final:See you',
      'Metadata',
    ]);
    expect(mock.sessions[0]!.query.vad_events).toBe('true');
  });

  it('a frame that ends exactly where the next utterance starts does not start it; the next frame does', async () => {
    const { summary } = await listen({ vad_events: 'true' }, [800, 100]);
    expect(summary).toEqual([
      { type: 'SpeechStarted', channel: [0, 1], timestamp: 0 },
      'final:your table is booked',
      { type: 'SpeechStarted', channel: [0, 1], timestamp: 0.8 },
      'Metadata',
    ]);
  });

  it('without vad_events (or with vad_events=false) no SpeechStarted is sent', async () => {
    const queries: Array<Record<string, string>> = [{}, { vad_events: 'false' }];
    for (const query of queries) {
      const { summary } = await listen({ interim_results: 'true', ...query }, [500, 500]);
      expect(summary).toEqual([
        'interim:your table',
        'final:your table is booked',
        'interim:see',
        'final:see',
        'Metadata',
      ]);
      await server?.close();
      server = undefined;
    }
  });
});
