/**
 * Wire gap of the OpenAI-compatible mock (dialect `openai`): OpenAI ignores `stream` for
 * `whisper-1` (PROTOCOLS.md 2.4, OAS `CreateTranscriptionRequest.stream`) and answers the
 * ordinary JSON transcript. The mock streamed `transcript.text.delta` events for it, so an app
 * that streams with `whisper-1` passed its CI against the mock while, against OpenAI, the
 * official client's event iterator yields nothing. The mock now answers `whisper-1` with the
 * JSON body whatever `stream` says; the other models, and the other dialects (a self-hosted
 * server's own rules), still stream.
 */

import OpenAI, { toFile } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeWav } from '../../src/audio/wav-writer.js';
import { createRouter } from '../../src/index.js';
import {
  createOpenAiCompatibleMock,
  type MockServer,
  type OpenAiDialect,
  startMockProviders,
  startMockServer,
} from '../../src/testing/index.js';
import { collect } from '../helpers/index.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16000 } as const;
/** 1 s of 16 kHz silence as a WAV file. */
const wav = encodeWav(FORMAT, new Uint8Array(16000 * 2));

let close: () => Promise<void> = async () => {};
afterEach(async () => {
  await close();
  close = async () => {};
});

async function serve(dialect: OpenAiDialect = 'openai') {
  const mock = createOpenAiCompatibleMock({ apiKey: 'test-key', dialect, transcript: 'Ask not.' });
  const server: MockServer = await startMockServer({ provider: mock });
  close = server.close;
  return { mock, url: server.url };
}

/** POSTs the multipart form of a streamed transcription of `wav` with `model`. */
function postStreamed(url: string, model: string): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'turn.wav');
  form.append('model', model);
  form.append('stream', 'true');
  return fetch(`${url}/v1/audio/transcriptions`, {
    method: 'POST',
    headers: { authorization: 'Bearer test-key' },
    body: form,
  });
}

describe('POST /audio/transcriptions with stream=true and whisper-1', () => {
  it('answers the JSON transcript, not an event stream, byte for byte', async () => {
    const { mock, url } = await serve();
    const response = await postStreamed(url, 'whisper-1');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe('{"text":"Ask not."}');
    expect(mock.requests.map((r) => [r.endpoint, r.form?.model, r.form?.stream, r.status])).toEqual([
      ['transcription', 'whisper-1', 'true', 200],
    ]);
  });

  it('the official client asking whisper-1 to stream reads no event, as against OpenAI; gpt-4o-mini-transcribe streams', async () => {
    const { url } = await serve();
    const openai = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'test-key', maxRetries: 0 });
    const file = () => toFile(wav, 'turn.wav', { type: 'audio/wav' });
    const whisper = await openai.audio.transcriptions.create({
      file: await file(),
      model: 'whisper-1',
      stream: true,
    });
    expect(await collect(whisper)).toEqual([]);

    const streamed = await openai.audio.transcriptions.create({
      file: await file(),
      model: 'gpt-4o-mini-transcribe',
      stream: true,
    });
    expect((await collect(streamed)).map((e) => e.type)).toEqual([
      'transcript.text.delta',
      'transcript.text.delta',
      'transcript.text.done',
    ]);
  });

  it.each([
    ['vllm', 'text/event-stream'],
    ['speaches', 'text/event-stream'],
  ] as const)('the %s dialect keeps streaming for a model named whisper-1', async (dialect, type) => {
    const { url } = await serve(dialect);
    const response = await postStreamed(url, 'whisper-1');
    expect(response.headers.get('content-type')).toBe(type);
    await response.body?.cancel();
  });

  it("voxroute's streaming adapter over the mock: whisper-1 gives one final and no partials", async () => {
    const mocks = await startMockProviders({
      providers: {
        oa: { kind: 'openai', apiKey: 'sk-test', stt: { model: 'whisper-1', streaming: true } },
      },
      routes: { stt: { providers: ['oa'] } },
    });
    close = mocks.close;
    const router = createRouter(mocks.config);
    try {
      async function* audio() {
        yield new Uint8Array(16000 * 2);
      }
      const events = await collect(router.stt({ audio: audio(), format: FORMAT, interim: true }));
      expect(events).toEqual([
        { type: 'final', text: 'This is a mock transcript.', startMs: 0, endMs: 1000 },
      ]);
      const [record] = mocks.mocks.oa!.requests;
      expect([record!.form?.stream, record!.status]).toEqual(['true', 200]);
    } finally {
      await router.close();
    }
  });
});
