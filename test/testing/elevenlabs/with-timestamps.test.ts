import { describe, expect, it } from 'vitest';
import { createElevenLabsMock, mockElevenLabsAudio } from '../../../src/testing/index.js';

const KEY = 'xi-test-key';
const TEXT = 'Hi there.';
const url = (query: string) =>
  `http://eleven.mock.test/v1/text-to-speech/voice-1/stream/with-timestamps${query}`;
const post = (mock: ReturnType<typeof createElevenLabsMock>, query: string) =>
  mock.handle(
    new Request(url(query), {
      method: 'POST',
      headers: { 'xi-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ text: TEXT, model_id: 'eleven_flash_v2_5' }),
    }),
  );

interface Line {
  audio_base64: string;
  alignment: {
    characters: string[];
    character_start_times_seconds: number[];
    character_end_times_seconds: number[];
  };
  normalized_alignment: unknown;
}

describe('ElevenLabs mock: /stream/with-timestamps (streamWithTimestamps)', () => {
  it('pcm_16000: JSON lines whose audio is the mock audio and whose alignment spells the text in order', async () => {
    const mock = createElevenLabsMock({ apiKey: KEY, script: { stream: { chunkBytes: 4000 } } });
    const response = await post(mock, '?output_format=pcm_16000');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const lines = (await response.text())
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Line);
    const expected = mockElevenLabsAudio(TEXT, { encoding: 'pcm_s16le', sampleRate: 16000 });
    const audio = Buffer.concat(lines.map((l) => Buffer.from(l.audio_base64, 'base64')));
    expect(audio.equals(Buffer.from(expected))).toBe(true);
    expect(lines.length).toBe(Math.ceil(expected.byteLength / 4000));
    expect(lines.flatMap((l) => l.alignment.characters).join('')).toBe(TEXT);
    const starts = lines.flatMap((l) => l.alignment.character_start_times_seconds);
    const ends = lines.flatMap((l) => l.alignment.character_end_times_seconds);
    const seconds = expected.byteLength / 2 / 16000;
    expect(starts[0]).toBe(0);
    expect(ends.at(-1)).toBeCloseTo(seconds, 3);
    expect(starts.every((s, i) => i === 0 || s >= starts[i - 1]!)).toBe(true);
    expect(lines[0]!.normalized_alignment).toEqual(lines[0]!.alignment);
    expect(mock.requests.map((r) => [r.endpoint, r.outcome])).toEqual([
      ['stream-with-timestamps', 'completed'],
    ]);
  });

  it('the default mp3 (no output_format) gets the 422 validation body naming the format', async () => {
    const mock = createElevenLabsMock({ apiKey: KEY });
    const response = await post(mock, '');
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      detail: [
        {
          loc: ['query', 'output_format'],
          msg: 'The mock server makes raw audio only (pcm_*, ulaw_8000, alaw_8000), not the default mp3_44100_128',
          type: 'value_error',
        },
      ],
    });
  });
});
