/**
 * Wire gap of the Deepgram mock's `/v1/listen`: `endpointing=false` turns Deepgram's
 * endpointing off, and with it `speech_final: true` (PROTOCOLS.md 3.2, DGDOC-endpointing); apps
 * that turn it off end utterances on `UtteranceEnd` instead. The mock ignored the parameter and
 * still marked each sentence's final `speech_final: true`, so such an app (and voxroute with
 * `stt.endpointingMs: false`) saw an end of speech on every final in CI that it never sees
 * from Deepgram. With `endpointing=false` the mock's finals now carry `speech_final: false`;
 * `UtteranceEnd` (with `utterance_end_ms`) is unchanged, and any other `endpointing` value keeps
 * the sentence-end endpoint.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { createRouter } from '../../src/index.js';
import {
  createDeepgramMock,
  type MockServer,
  startMockProviders,
  startMockServer,
  syntheticAudio,
} from '../../src/testing/index.js';
import { collect } from '../helpers/index.js';
import { openClient } from '../testing/deepgram/ws-client.js';

const KEY = 'dg-endpointing-off-key';
const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16000 } as const;
const TRANSCRIPT = 'Your table is booked. See you soon.';

let close: () => Promise<void> = async () => {};
afterEach(async () => {
  await close();
  close = async () => {};
});

/** The `is_final`/`speech_final` flags and text of each Results, and the other message types, of one session. */
async function session(query: string) {
  const mock = createDeepgramMock({
    apiKey: KEY,
    transcript: TRANSCRIPT,
    wordMs: 200,
    inactivityTimeoutMs: 0,
  });
  const server: MockServer = await startMockServer({ provider: mock });
  close = server.close;
  const client = await openClient(
    `${server.url.replace('http:', 'ws:')}/v1/listen?model=nova-3&encoding=linear16&sample_rate=16000&${query}`,
    { headers: { authorization: `Token ${KEY}` } },
  );
  client.ws.send(syntheticAudio({ durationMs: 1400, format: FORMAT }));
  client.sendJson({ type: 'CloseStream' });
  expect(await client.closed).toEqual({ code: 1000, reason: '' });
  return client.messages.map((m) => {
    const msg = m as Record<string, unknown> & {
      channel?: { alternatives: Array<{ transcript: string }> };
    };
    if (msg.type !== 'Results') return msg.type;
    return `${msg.is_final}/${msg.speech_final}:${msg.channel!.alternatives[0]!.transcript}`;
  });
}

describe('Deepgram mock /v1/listen with endpointing=false', () => {
  it('finals at sentence ends carry speech_final: false; UtteranceEnd still comes', async () => {
    expect(await session('endpointing=false&interim_results=true&utterance_end_ms=1000')).toEqual([
      'true/false:your table is booked',
      'UtteranceEnd',
      'true/false:see you soon',
      'UtteranceEnd',
      'Metadata',
    ]);
  });

  it.each(['endpointing=300', 'endpointing=10', ''])(
    '%s keeps speech_final: true at sentence ends',
    async (query) => {
      expect(await session(query)).toEqual([
        'true/true:your table is booked',
        'true/true:see you soon',
        'Metadata',
      ]);
    },
  );

  it('voxroute with endpointingMs: false and utteranceEndMs: the end of speech comes from UtteranceEnd, as from Deepgram', async () => {
    const mocks = await startMockProviders(
      {
        providers: {
          dg: {
            kind: 'deepgram',
            apiKey: 'dg',
            stt: { model: 'nova-3', endpointingMs: false, utteranceEndMs: 1000 },
          },
        },
        routes: { stt: { providers: ['dg'] } },
      },
      { providers: { dg: { transcript: TRANSCRIPT, wordMs: 200, inactivityTimeoutMs: 0 } } },
    );
    close = mocks.close;
    const router = createRouter(mocks.config);
    try {
      async function* audio() {
        yield syntheticAudio({ durationMs: 1400, format: FORMAT });
      }
      const events = await collect(router.stt({ audio: audio(), format: FORMAT }));
      expect(events.map((e) => [e.type, e.text, e.endOfSpeech ?? false])).toEqual([
        ['final', 'your table is booked', false],
        ['final', '', true],
        ['final', 'see you soon', false],
        ['final', '', true],
      ]);
      expect(new URL(mocks.mocks.dg!.requests[0]!.url).searchParams.get('endpointing')).toBe('false');
    } finally {
      await router.close();
    }
  });
});
