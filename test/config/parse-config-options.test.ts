/** parseConfig's own options, given wrong from untyped code: a TypeError naming the option. */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/index.js';
import { validConfig } from './helpers.js';

const config = validConfig();
const env = { OPENAI_API_KEY: 'sk-test-key-123456' };

describe('parseConfig: its options argument is checked', () => {
  it('options null, env or source of the wrong type: TypeError naming it', () => {
    // options null was "Cannot read properties of null (reading 'source')".
    expect(() => parseConfig(config, null as never)).toThrow(
      new TypeError('parseConfig(input, options?): options must be an object ({ env?, source? }), got null'),
    );
    expect(() => parseConfig(config, { env: 'prod' } as never)).toThrow(
      new TypeError('parseConfig: options.env must be an object of environment variables, got string'),
    );
    expect(() => parseConfig(config, { source: 42 } as never)).toThrow(
      new TypeError('parseConfig: options.source must be a string, got number'),
    );
    expect(parseConfig(config, { env }).providers.openai?.kind).toBe('openai');
  });
});
