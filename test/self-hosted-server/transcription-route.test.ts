import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SelfHostedServer, startSelfHostedServer } from '../../examples/self-hosted-server/server.js';
import { readWav } from '../../src/audio/index.js';
import { createFakeEngines, type FakeEngines } from './fake-engines.js';

// The transcription route driven by fake pocketsphinx binaries (shell scripts): exact SSE
// framing, conversion of the upload, temp-file cleanup and errors, without Debian engines.
const FIXTURES = new URL('../fixtures/', import.meta.url);

let fakes: FakeEngines;
let server: SelfHostedServer;
let v5Server: SelfHostedServer;

beforeAll(async () => {
  fakes = await createFakeEngines();
  server = await startSelfHostedServer({ port: 0, engines: { pocketsphinx: fakes.continuous } });
  v5Server = await startSelfHostedServer({ port: 0, engines: { pocketsphinx: fakes.v5 } });
});
beforeEach(() => fakes.setSphinxMode('ok'));
afterAll(async () => {
  await server.close();
  await v5Server.close();
  await fakes.remove();
});

async function transcribe(
  fields: Record<string, string>,
  file: Uint8Array<ArrayBuffer> | null = null,
  target: SelfHostedServer = server,
): Promise<Response> {
  const form = new FormData();
  const bytes = file ?? new Uint8Array(await readFile(new URL('jfk-16k-s16le.wav', FIXTURES)));
  form.append('file', new Blob([bytes], { type: 'audio/wav' }), 'speech.wav');
  form.append('model', 'whisper-1');
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return fetch(`${target.baseUrl}/audio/transcriptions`, { method: 'POST', body: form });
}

describe('POST /v1/audio/transcriptions (fake pocketsphinx)', () => {
  it('stream=true: one transcript.text.delta per recognised line, then transcript.text.done, exactly', async () => {
    const response = await transcribe({ stream: 'true', language: 'en' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(await response.text()).toBe(
      'data: {"type":"transcript.text.delta","delta":"ask not"}\n\n' +
        'data: {"type":"transcript.text.delta","delta":" what your country can do for you"}\n\n' +
        'data: {"type":"transcript.text.done","text":"ask not what your country can do for you"}\n\n',
    );
  });

  it('without stream answers {text}; response_format=text answers the bare text', async () => {
    const json = await transcribe({});
    expect(json.headers.get('content-type')).toBe('application/json');
    expect(await json.json()).toEqual({ text: 'ask not what your country can do for you' });
    const text = await transcribe({ response_format: 'text' });
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await text.text()).toBe('ask not what your country can do for you');
  });

  it('runs pocketsphinx_continuous -infile FILE -logfn LOG on a temp dir it removes afterwards', async () => {
    await fakes.setSphinxMode('path');
    const response = await transcribe({});
    const { text } = (await response.json()) as { text: string };
    const args = await fakes.sphinxArgs('continuous');
    const dir = dirname(text);
    expect(args).toEqual(['-infile', `${dir}/input.wav`, '-logfn', `${dir}/pocketsphinx.log`]);
    expect(dir).toMatch(/voxroute-stt-/);
    expect(existsSync(dir)).toBe(false);
  });

  it('converts an 8 kHz mu-law WAV to 16 kHz mono s16le before decoding', async () => {
    const mulaw = new Uint8Array(await readFile(new URL('jfk-8k-mulaw.wav', FIXTURES)));
    const response = await transcribe({}, mulaw);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const input = await fakes.lastSphinxInput();
    const wav = readWav(
      (async function* () {
        yield input;
      })(),
    );
    expect(await wav.format).toEqual({ encoding: 'pcm_s16le', sampleRate: 16000, channels: 1 });
    let bytes = 0;
    for await (const part of wav.data) bytes += part.byteLength;
    // 11.00 s: 88 000 mu-law samples at 8 kHz -> 176 000 samples of 2 bytes at 16 kHz.
    expect(bytes).toBe(352_000);
  });

  it('parses the JSON lines of pocketsphinx 5 (`pocketsphinx -logfn LOG live FILE`)', async () => {
    const response = await transcribe({ stream: 'true' }, null, v5Server);
    const events = (await response.text()).split('\n\n').filter((e) => e !== '');
    expect(events.map((e) => JSON.parse(e.slice(6)))).toEqual([
      { type: 'transcript.text.delta', delta: 'ask not' },
      { type: 'transcript.text.delta', delta: ' what your country can do' },
      { type: 'transcript.text.done', text: 'ask not what your country can do' },
    ]);
    const args = await fakes.sphinxArgs('v5');
    expect(args.slice(0, 1)).toEqual(['-logfn']);
    expect(args[1]).toMatch(/voxroute-stt-.*\/pocketsphinx\.log$/);
    expect(args[2]).toBe('live');
    expect(args[3]).toMatch(/voxroute-stt-.*\/input\.wav$/);
  });

  it('answers 500 with the last ERROR line of the log when pocketsphinx fails before any text', async () => {
    await fakes.setSphinxMode('fail');
    const response = await transcribe({ stream: 'true' });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      error: {
        message:
          'pocketsphinx failed (exit code 1): ERROR: "acmod.c", line 78: Folder does not contain acoustic model definition mdef. Is pocketsphinx-en-us installed?',
        type: 'server_error',
        param: null,
        code: 'engine_failed',
      },
    });
  });

  it('ends the stream with a data: {"error"} event, and no done, when pocketsphinx fails after text', async () => {
    await fakes.setSphinxMode('fail-after');
    const response = await transcribe({ stream: 'true' });
    expect(response.status).toBe(200);
    const events = (await response.text()).split('\n\n').filter((e) => e !== '');
    expect(events.map((e) => JSON.parse(e.slice(6)))).toEqual([
      { type: 'transcript.text.delta', delta: 'ask not' },
      {
        error: {
          message:
            'pocketsphinx failed (exit code 2): ERROR: "decoder.c", line 9: decoder died. Is pocketsphinx-en-us installed?',
          type: 'server_error',
          param: null,
          code: 'engine_failed',
        },
      },
    ]);
  });

  it('answers 400 for a file that is not WAV, a missing file, a non-English language or a JSON body', async () => {
    const notWav = await transcribe({}, new TextEncoder().encode('ID3 not a wav at all'));
    expect(notWav.status).toBe(400);
    expect((await notWav.json()).error).toMatchObject({ param: 'file', code: 'invalid_audio' });

    const form = new FormData();
    form.append('model', 'whisper-1');
    const missing = await fetch(`${server.baseUrl}/audio/transcriptions`, { method: 'POST', body: form });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toMatchObject({ param: 'file', code: 'missing_required_parameter' });

    const french = await transcribe({ language: 'fr' });
    expect(french.status).toBe(400);
    expect((await french.json()).error).toMatchObject({ param: 'language', code: 'unsupported_language' });

    const json = await fetch(`${server.baseUrl}/audio/transcriptions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"file":"x"}',
    });
    expect(json.status).toBe(400);
    expect((await json.json()).error.code).toBe('invalid_content_type');
  });
});
