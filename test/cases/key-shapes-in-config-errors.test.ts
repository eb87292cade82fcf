/**
 * A provider's key pasted as a provider name or a route entry, in any of the providers' shapes
 * (ElevenLabs `sk_` + hex, Cartesia `sk_car_`, Groq `gsk_`, upper-case hex, AWS secret access
 * keys with `/` and `+`, AWS access key ids), is `[redacted]` in the ConfigError; ordinary
 * names (providers, routes, models, fields) are shown as they are.
 */
import { describe, expect, it } from 'vitest';
import { redactKeyShapes } from '../../src/config/redact.js';
import { type ConfigError, parseConfig } from '../../src/index.js';
import { configErrorOf } from '../config/helpers.js';

// Made-up keys in each provider's shape, written in two parts so that no key-shaped literal sits
// in the tree (secret scanners flag them); the values are what the test sees.
const KEYS = {
  elevenlabs: 'sk_3f9a1c2b7d4e5f60' + '718293a4b5c6d7e8f9012345abcdef67',
  cartesia: 'sk_car_Ab3dEf6hIj9' + 'kLm2nOp5qRs8tUv1wXy4z',
  groq: 'gsk_aB3dE6hI9kL2nO5' + 'qR8tU1wX4zC7fG0jM3pS6',
  openai: 'sk-proj-abcDEF12' + '34567890123456',
  deepgramHexUpper: 'D0E1F2A3B4C5D6E7F8' + '091A2B3C4D5E6F7A8B9C0D',
  deepgramHex: '3f9a1c2b7d4e5f6071' + '8293a4b5c6d7e8f9012345',
  awsSecret: 'wJalrXUtnFEMI/K7MDENG' + '/bPxRfiCYEXAMPLEKEY',
  awsSecretPlus: 'q8Zt+3vKx9/LmP2wRb7' + 'Ny4Hc6Jd1Fg5Ts0Ek+AuW',
  awsAccessKeyId: 'AKIA' + 'IOSFODNN7EXAMPLE',
  randomToken: 'Zx8kQ2mN7pL4vR9t' + 'Y1wB6cH3jF5gD0sA',
};

/** Names seen in configs: shown intact in any error text. */
const NAMES = [
  'openai-east-2',
  'ec2-a',
  'cartesia_sonic',
  'acme-voice-gw',
  'deepgram-nova-3-us-east-1-primary',
  'sagemaker-whisper-large-v3-endpoint',
  'whisper-large-v3-turbo-us-west-2',
  'my_provider_v2_backup_2024',
  'elevenlabs_flash_v2_5_eu',
  'eleven_multilingual_v2',
  'gpt-4o-mini-2024-07-18',
  'claude-3-5-sonnet-20241022',
  'Llama-3.1-8B-Instruct',
  'sonic-english-2024-12-12',
  'aura-2-thalia-en',
  'firstChunkTimeoutMs',
  'secretAccessKey',
  'AWS_SECRET_ACCESS_KEY',
  'arn:aws:sagemaker:us-east-1:123456789012:endpoint/whisper-v3',
  '/work/app/node_modules/vitest/dist/chunks/runBaseTests',
];

const configError = (input: unknown): ConfigError =>
  configErrorOf(() => parseConfig(input as never, { env: {} }));

const issues = (e: ConfigError) => e.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
const provider = { kind: 'openai', apiKey: 'x'.repeat(8), chat: { models: { f: 'm' } } };

describe('a key pasted as a name is redacted, whatever its shape', () => {
  for (const [shape, key] of Object.entries(KEYS)) {
    it(`${shape}: as a route entry and as a provider name`, () => {
      const entry = configError({ providers: { a: provider }, routes: { chat: { providers: [key] } } });
      expect(issues(entry)).toEqual([
        'routes.chat.providers.0: unknown provider "[redacted]"; the config has "a"',
      ]);
      const name = configError({
        providers: { [key]: { ...provider, chat: { models: {} } } },
        routes: { chat: { providers: ['a'] } },
      });
      const text = `${name.message}${JSON.stringify(name.issues)}`;
      expect(text).not.toContain(key.slice(4, 16));
      expect(issues(name)[0]).toBe('providers.[redacted].chat.models: must map at least one name');
    });
  }

  it('every key shape alone in a text is [redacted]', () => {
    for (const key of Object.values(KEYS)) expect(redactKeyShapes(`got ${key}.`)).toBe('got [redacted].');
  });

  it('ordinary names are shown intact', () => {
    for (const name of NAMES)
      expect(redactKeyShapes(`unknown provider "${name}"`)).toBe(`unknown provider "${name}"`);
    const e = configError({
      providers: { 'openai-east-2': provider, cartesia_sonic: provider },
      routes: { chat: { providers: ['openai-east-2', 'deepgram-nova-3-us-east-1-primary'] } },
    });
    expect(issues(e)).toEqual([
      'routes.chat.providers.1: unknown provider "deepgram-nova-3-us-east-1-primary"; the config has "openai-east-2", "cartesia_sonic"',
    ]);
  });
});
