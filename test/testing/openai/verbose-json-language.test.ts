/**
 * OpenAI's `verbose_json` transcription names the language (`"language": "english"`, the
 * OpenAPI spec's example), also when the request gave its ISO-639-1 code. The mock echoed the
 * code (`language=en` -> `"en"`), while it answered `"english"` when none was given: an app
 * comparing `result.language` to `'english'` passed or failed in CI by whether it sent a code.
 */
import OpenAI, { toFile } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeWav } from '../../../src/audio/wav-writer.js';
import { createOpenAiCompatibleMock, type MockServer, startMockServer } from '../../../src/testing/index.js';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const wav = encodeWav({ encoding: 'pcm_s16le', sampleRate: 16000 }, new Uint8Array(16000 * 2));

/** The `language` of a verbose_json transcription through the official client. */
async function languageOf(dialect: 'openai', language: string | undefined): Promise<string> {
  server ??= await startMockServer({ provider: createOpenAiCompatibleMock({ apiKey: 'test-key', dialect }) });
  const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test-key', maxRetries: 0 });
  const result = await openai.audio.transcriptions.create({
    file: await toFile(wav, 'turn.wav', { type: 'audio/wav' }),
    model: 'whisper-1',
    response_format: 'verbose_json',
    ...(language !== undefined ? { language } : {}),
  });
  return result.language;
}

describe('OpenAI mock: verbose_json language is the language name, as OpenAI answers', () => {
  it.each([
    ['en', 'english'],
    ['de', 'german'],
    ['zh', 'chinese'],
    ['mi', 'maori'],
    [undefined, 'english'],
  ])('language=%s -> %s', async (code, name) => {
    expect(await languageOf('openai', code)).toBe(name);
  });

  it('a value that names no language is echoed', async () => {
    expect(await languageOf('openai', 'zz')).toBe('zz');
  });
});
