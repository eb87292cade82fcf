import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EngineRun } from '../../examples/self-hosted-server/engines.js';
import { type SelfHostedServer, startSelfHostedServer } from '../../examples/self-hosted-server/server.js';
import { createAudioConverter } from '../../src/audio/index.js';
import { createFakeEngines, type FakeEngines, fakeSpeechWav } from './fake-engines.js';

// These tests drive the speech route with a fake espeak-ng (a shell script), so they need no
// Debian engine; test/engines/ runs the real one.
let fakes: FakeEngines;
let server: SelfHostedServer;
const runs: EngineRun[] = [];

beforeAll(async () => {
  fakes = await createFakeEngines();
  server = await startSelfHostedServer({
    port: 0,
    engines: { espeak: fakes.espeak, pocketsphinx: fakes.continuous },
    onEngineRun: (run) => runs.push(run),
  });
});
afterEach(() => {
  runs.length = 0;
});
afterAll(async () => {
  await server.close();
  await fakes.remove();
});

function speech(body: Record<string, unknown>, signal?: AbortSignal): Promise<Response> {
  return fetch(`${server.baseUrl}/audio/speech`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'tts-1', voice: 'alloy', ...body }),
    ...(signal ? { signal } : {}),
  });
}

describe('POST /v1/audio/speech (fake espeak-ng)', () => {
  it('forwards the WAV byte for byte and passes voice, rate and text as separate arguments', async () => {
    const response = await speech({ input: '-w /tmp/x hello', voice: 'nova', speed: 2 });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(fakeSpeechWav());
    expect(await fakes.espeakArgs()).toEqual([
      '--stdout',
      '-v',
      'en-us+f3',
      '-s',
      '350',
      '--',
      '-w /tmp/x hello',
    ]);
  });

  it('passes an espeak-ng voice name through and clamps slow speeds to 80 words per minute', async () => {
    const response = await speech({ input: 'hello', voice: 'en-gb-x-rp', speed: 0.25 });
    await response.arrayBuffer();
    expect(await fakes.espeakArgs()).toEqual(['--stdout', '-v', 'en-gb-x-rp', '-s', '80', '--', 'hello']);
  });

  it("response_format 'pcm' strips the header and resamples 22050 -> 24000 Hz", async () => {
    const response = await speech({ input: 'hello', response_format: 'pcm' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/pcm');
    const body = new Uint8Array(await response.arrayBuffer());
    // 1000 samples at 22050 Hz -> round(1000 * 24000 / 22050) = 1088 samples of 2 bytes.
    expect(body.byteLength).toBe(2176);
    const converter = await createAudioConverter(
      { encoding: 'pcm_s16le', sampleRate: 22050 },
      { encoding: 'pcm_s16le', sampleRate: 24000 },
    );
    const wav = fakeSpeechWav();
    const direct = [converter.push(wav.subarray(44)), converter.flush()];
    converter.close();
    expect(body).toEqual(new Uint8Array(Buffer.concat(direct)));
  });

  it('answers 400 invalid_voice when espeak-ng rejects the voice before any audio', async () => {
    const response = await speech({ input: 'fail-before', voice: 'klingon' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        message: "Voice 'klingon' is not an espeak-ng voice (see espeak-ng --voices).",
        type: 'invalid_request_error',
        param: 'voice',
        code: 'invalid_voice',
      },
    });
  });

  it('truncates the stream (no clean end) when espeak-ng fails after the first bytes', async () => {
    const response = await speech({ input: 'crash-after' });
    expect(response.status).toBe(200);
    await expect(response.arrayBuffer()).rejects.toMatchObject({ name: 'TypeError', message: 'terminated' });
    expect(await runs[0]?.exited).toEqual({ code: 3, signal: null });
  });

  it('kills espeak-ng with SIGKILL when the client disconnects mid-stream', async () => {
    const controller = new AbortController();
    const response = await speech({ input: 'hang' }, controller.signal);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(first.value?.subarray(0, 4)).toEqual(new TextEncoder().encode('RIFF'));
    expect(server.runningEngines).toBe(1);
    controller.abort();
    expect(await runs[0]?.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(server.runningEngines).toBe(0);
  });

  it('close() kills a running espeak-ng and drops its connection', async () => {
    const own = await startSelfHostedServer({
      port: 0,
      engines: { espeak: fakes.espeak },
      onEngineRun: (r) => runs.push(r),
    });
    const response = await fetch(`${own.baseUrl}/audio/speech`, {
      method: 'POST',
      body: JSON.stringify({ input: 'hang' }),
    });
    const reader = response.body!.getReader();
    await reader.read();
    const rest = reader.read().then(
      () => 'more data',
      (e: unknown) => e,
    );
    await own.close();
    expect(await runs[0]?.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(await rest).toMatchObject({ name: 'TypeError', message: 'terminated' });
  });

  it.each([
    [{ input: '' }, 'input', 'invalid_value'],
    [{ input: 'x'.repeat(4097) }, 'input', 'string_above_max_length'],
    [{ input: 'hi', speed: 5 }, 'speed', 'invalid_value'],
    [{ input: 'hi', response_format: 'mp3' }, 'response_format', 'unsupported_response_format'],
    [{ input: 'hi', stream_format: 'sse' }, 'stream_format', 'unsupported_stream_format'],
    [{ input: 'hi', voice: '--help' }, 'voice', 'invalid_value'],
  ])('answers 400 for %j (param %s)', async (body, param, code) => {
    const response = await speech(body);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({ type: 'invalid_request_error', param, code });
    expect(runs).toEqual([]);
  });
});
