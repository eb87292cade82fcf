import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SelfHostedServer, startSelfHostedServer } from '../../examples/self-hosted-server/server.js';

const FIXTURE = new URL('../fixtures/jfk-16k-s16le.wav', import.meta.url);

let server: SelfHostedServer;
beforeAll(async () => {
  server = await startSelfHostedServer({
    port: 0,
    engines: { espeak: '/nonexistent/espeak-ng', pocketsphinx: '/nonexistent/pocketsphinx_continuous' },
  });
});
afterAll(() => server.close());

describe('engines absent', () => {
  it('speech answers 501 engine_not_installed naming the Debian package', async () => {
    const response = await fetch(`${server.baseUrl}/audio/speech`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'tts-1', input: 'Hello.', voice: 'alloy' }),
    });
    expect(response.status).toBe(501);
    expect(await response.json()).toEqual({
      error: {
        message:
          'This server has no espeak-ng engine. Install it on the server with: sudo apt-get install -y espeak-ng',
        type: 'server_error',
        param: null,
        code: 'engine_not_installed',
      },
    });
  });

  it('transcription answers 501 engine_not_installed naming pocketsphinx and its model package', async () => {
    const form = new FormData();
    form.append('file', new Blob([await readFile(FIXTURE)], { type: 'audio/wav' }), 'jfk.wav');
    form.append('model', 'whisper-1');
    form.append('stream', 'true');
    const response = await fetch(`${server.baseUrl}/audio/transcriptions`, { method: 'POST', body: form });
    expect(response.status).toBe(501);
    expect((await response.json()).error).toEqual({
      message:
        'This server has no pocketsphinx engine. Install it on the server with: sudo apt-get install -y pocketsphinx pocketsphinx-en-us',
      type: 'server_error',
      param: null,
      code: 'engine_not_installed',
    });
  });

  it('/health reports both engines as missing, with the install command', async () => {
    const response = await fetch(`${server.url}/health`);
    expect(await response.json()).toEqual({
      status: 'ok',
      engines: {
        'espeak-ng': { path: null, install: 'apt-get install -y espeak-ng' },
        pocketsphinx: { path: null, install: 'apt-get install -y pocketsphinx pocketsphinx-en-us' },
      },
    });
  });

  it('chat still works without engines', async () => {
    const response = await fetch(`${server.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'voxroute-echo', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(200);
    expect((await response.json()).choices[0].message.content).toBe('I heard: hi. How can I help?');
  });
});
