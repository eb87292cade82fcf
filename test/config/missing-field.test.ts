import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { configErrorOf, validConfig } from './helpers.js';

describe('parseConfig: a required field that is missing', () => {
  it('says so in plain words, next to the did-you-mean of the typo that left it missing', () => {
    const input = validConfig();
    input.providers['ec2-a'].tts = { model: 'espeak-ng', voice: { agent: 'en-us' } };
    input.providers['ec2-a'].stt = {};
    input.routes.tts.providers = undefined;
    const error = configErrorOf(() => parseConfig(input, { env: { OPENAI_API_KEY: 'sk-test-key-123456' } }));
    expect(error.issues).toEqual([
      {
        path: ['providers', 'ec2-a', 'tts', 'voices'],
        message: 'required, but missing (an object of names to values)',
      },
      { path: ['providers', 'ec2-a', 'tts', 'voice'], message: 'unknown key; did you mean "voices"?' },
      { path: ['providers', 'ec2-a', 'stt', 'model'], message: 'required, but missing (a string)' },
      { path: ['routes', 'tts', 'providers'], message: 'required, but missing (a list)' },
    ]);
  });
});
