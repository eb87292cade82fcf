/**
 * The reverse of the mock checks: voxroute's Deepgram listen adapter against a raw server (not
 * voxroute's mock) replaying Deepgram's own messages as PROTOCOLS.md 3.2 quotes them from DGJS
 * and Deepgram's docs: a `SpeechStarted` before any Results (what a session with
 * `vad_events=true` opens with), Results carrying the fields voxroute does not read
 * (`channel_index`, `languages`, `speaker`, `metadata.model_info`, `entities`), an
 * `UtteranceEnd` after a `speech_final` final, an empty `from_finalize` final for the adapter's
 * Finalize, then `Metadata` and a close 1000 after CloseStream. The router must yield exactly the transcript, with one end of speech.
 */

import { expect, it } from 'vitest';
import { drain, router, wsServer } from './wire/servers.js';

const metadata = {
  request_id: 'r-1',
  model_info: { name: 'general-nova-3', version: '2024-12-20', arch: 'nova-3' },
  model_uuid: 'u-1',
};
const word = (w: string, p: string, start: number, end: number) => ({
  word: w,
  start,
  end,
  confidence: 0.99,
  punctuated_word: p,
  speaker: 0,
});

it('SpeechStarted first, Results with unread fields, UtteranceEnd, Metadata: exactly the transcript, one end of speech', async () => {
  const texts: string[] = [];
  const wire = await wsServer((ws) => {
    let answered = false;
    ws.on('message', (data, binary) => {
      if (binary) {
        if (answered) return;
        answered = true;
        ws.send(JSON.stringify({ type: 'SpeechStarted', channel: [0, 1], timestamp: 0.0 }));
        ws.send(
          JSON.stringify({
            type: 'Results',
            channel_index: [0, 1],
            duration: 0.5,
            start: 0,
            is_final: false,
            speech_final: false,
            channel: {
              alternatives: [
                {
                  transcript: 'another',
                  confidence: 0.9,
                  languages: ['en'],
                  words: [word('another', 'Another', 0, 0.3)],
                },
              ],
            },
            metadata,
          }),
        );
        ws.send(
          JSON.stringify({
            type: 'Results',
            channel_index: [0, 1],
            duration: 0.98,
            start: 0,
            is_final: true,
            speech_final: true,
            from_finalize: false,
            channel: {
              alternatives: [
                {
                  transcript: 'Another big',
                  confidence: 0.99,
                  languages: ['en'],
                  words: [word('another', 'Another', 0, 0.3), word('big', 'big', 0.4, 0.9)],
                },
              ],
            },
            metadata,
            entities: [],
          }),
        );
        ws.send(JSON.stringify({ type: 'UtteranceEnd', channel: [0, 1], last_word_end: 0.9 }));
        return;
      }
      const text = String(data);
      texts.push(text);
      const type = (JSON.parse(text) as { type: string }).type;
      if (type === 'Finalize') {
        // Nothing pending: Deepgram answers with an empty final flagged from_finalize (DGDOC-finalize).
        ws.send(
          JSON.stringify({
            type: 'Results',
            channel_index: [0, 1],
            duration: 0.02,
            start: 0.98,
            is_final: true,
            speech_final: false,
            from_finalize: true,
            channel: { alternatives: [{ transcript: '', confidence: 0, languages: [], words: [] }] },
            metadata,
          }),
        );
      }
      if (type === 'CloseStream') {
        ws.send(
          JSON.stringify({
            type: 'Metadata',
            transaction_key: 'deprecated',
            request_id: 'r-1',
            sha256: '0'.repeat(64),
            created: '2024-08-29T22:37:55.202Z',
            duration: 1.0,
            channels: 1,
          }),
        );
        ws.close(1000);
      }
    });
  });
  const r = router({
    providers: {
      dg: {
        kind: 'deepgram',
        baseUrl: wire.url.replace('ws:', 'http:'),
        apiKey: 'dg-replay-key',
        stt: { model: 'nova-3', utteranceEndMs: 1000 },
      },
    },
    routes: { stt: { providers: ['dg'] } },
  });
  async function* audio() {
    yield new Uint8Array(32_000); // 1 s of 16 kHz PCM s16le
  }
  const { items, error } = await drain(
    r.stt({ audio: audio(), format: { encoding: 'pcm_s16le', sampleRate: 16_000 }, interim: true }),
  );
  expect(error).toBeUndefined();
  expect(items).toEqual([
    {
      type: 'partial',
      text: 'another',
      startMs: 0,
      endMs: 500,
      words: [{ word: 'Another', startMs: 0, endMs: 300, confidence: 0.99 }],
      confidence: 0.9,
    },
    {
      type: 'final',
      text: 'Another big',
      startMs: 0,
      endMs: 980,
      words: [
        { word: 'Another', startMs: 0, endMs: 300, confidence: 0.99 },
        { word: 'big', startMs: 400, endMs: 900, confidence: 0.99 },
      ],
      confidence: 0.99,
      endOfSpeech: true,
    },
  ]);
  expect(texts.map((t) => (JSON.parse(t) as { type: string }).type)).toEqual(['Finalize', 'CloseStream']);
});
