import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineRun } from '../../examples/self-hosted-server/engines.js';
import { type SelfHostedServer, startSelfHostedServer } from '../../examples/self-hosted-server/server.js';

// Needs pocketsphinx and its US English model from Debian
// (`apt-get install -y pocketsphinx pocketsphinx-en-us`). Each decode of the 11 s JFK file
// takes about 4-6 s of CPU, so the two cases run concurrently.
const FIXTURES = new URL('../fixtures/', import.meta.url);
const API_KEY = 'engine-test-key';

let server: SelfHostedServer;
const runs: EngineRun[] = [];

beforeAll(async () => {
  server = await startSelfHostedServer({ port: 0, apiKey: API_KEY, onEngineRun: (run) => runs.push(run) });
});
afterAll(() => server.close());

/** The temp dir a pocketsphinx run read its input from (its `-infile` argument's dir). */
function inputDirOf(run: EngineRun): string {
  const infile = run.args[run.args.indexOf('-infile') + 1];
  if (infile === undefined) throw new Error('no -infile argument');
  return dirname(infile);
}

// On a busy 2-core machine one decode took up to 25 s, hence the generous timeout.
describe.concurrent('self-hosted server /v1/audio/transcriptions on pocketsphinx', {
  timeout: 90_000,
}, () => {
  it('transcribes the 16 kHz JFK file through the official openai client (stream: true), with "country"', async () => {
    const client = new OpenAI({ baseURL: server.baseUrl, apiKey: API_KEY, maxRetries: 0 });
    const bytes = await readFile(new URL('jfk-16k-s16le.wav', FIXTURES));
    const stream = await client.audio.transcriptions.create({
      file: await toFile(bytes, 'jfk-16k-s16le.wav', { type: 'audio/wav' }),
      model: 'pocketsphinx',
      language: 'en',
      stream: true,
    });
    const deltas: string[] = [];
    let done: string | undefined;
    for await (const event of stream) {
      if (event.type === 'transcript.text.delta') deltas.push(event.delta);
      else if (event.type === 'transcript.text.done') done = event.text;
    }
    // One delta per utterance pocketsphinx printed (it splits this sentence into several).
    expect(deltas.length).toBeGreaterThanOrEqual(2);
    expect(done).toBe(deltas.join(''));
    expect(done).toMatch(/\bcountry\b/);
  });

  it('converts the 8 kHz mu-law file to 16 kHz and streams an SSE transcript of it', async () => {
    const form = new FormData();
    const bytes = await readFile(new URL('jfk-8k-mulaw.wav', FIXTURES));
    form.append('file', new Blob([bytes], { type: 'audio/wav' }), 'jfk-8k-mulaw.wav');
    form.append('model', 'pocketsphinx');
    form.append('stream', 'true');
    const response = await fetch(`${server.baseUrl}/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}` },
      body: form,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const raw = await response.text();
    expect(raw.endsWith('\n\n')).toBe(true);
    const events = raw
      .slice(0, -2)
      .split('\n\n')
      .map((frame) => {
        expect(frame.startsWith('data: ')).toBe(true);
        return JSON.parse(frame.slice('data: '.length)) as { type: string; delta?: string; text?: string };
      });
    const last = events.at(-1)!;
    expect(last.type).toBe('transcript.text.done');
    const deltas = events.slice(0, -1);
    expect(deltas.length).toBeGreaterThanOrEqual(2);
    expect(deltas.every((e) => e.type === 'transcript.text.delta')).toBe(true);
    expect(last.text).toBe(deltas.map((e) => e.delta).join(''));
    // Telephone-band audio upsampled to 16 kHz is hard for pocketsphinx's wideband model: on
    // Debian 12 it does not recover "country" from this file (with the default sinc-fastest
    // resampler), but every decode holds the word "you" (the sentence has it four times).
    expect(last.text).toMatch(/\byou\b/);
  });
});

it('ran pocketsphinx once per request, and removed each temp input dir', async () => {
  expect(runs.map((r) => r.engine)).toEqual(['pocketsphinx', 'pocketsphinx']);
  for (const run of runs) {
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(inputDirOf(run)).toMatch(/voxroute-stt-/);
    expect(existsSync(inputDirOf(run))).toBe(false);
  }
});
