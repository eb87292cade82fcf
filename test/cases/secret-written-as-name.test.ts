/**
 * A secret written where a name was expected: in YAML, `apiKey: { sk-... }` (the key in the
 * `{ env }` form's braces) or `headers: { "Authorization: Bearer sk-..." }` makes the key a
 * mapping key; a key can also be pasted as a provider name or a route entry. The ConfigError
 * still names the path, with `[redacted]` for the secret in paths and messages alike.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseConfig } from '../../src/index.js';

const KEY = 'sk-live-CFGSECRET-abcdef1234567890';
const ENV = { OPENAI_API_KEY: 'sk-other-0000000000000000' };

async function loadYaml(text: string): Promise<ConfigError> {
  const file = join(mkdtempSync(join(tmpdir(), 'vox-secret-name-')), 'voxroute.config.yaml');
  writeFileSync(file, text);
  const error = await loadConfig(file, { env: ENV }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  const e = error as ConfigError;
  expect(`${e.message}${JSON.stringify(e.issues)}${e.stack}`).not.toContain('CFGSECRET');
  return e;
}

function parseError(input: unknown): ConfigError {
  try {
    parseConfig(input as never, { env: ENV });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const e = error as ConfigError;
    expect(`${e.message}${JSON.stringify(e.issues)}`).not.toContain('CFGSECRET');
    return e;
  }
  throw new Error('expected a ConfigError');
}

const issues = (e: ConfigError) => e.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

describe('a secret written as a name is redacted in ConfigError paths and messages', () => {
  it('YAML apiKey: { sk-... }: the key is a mapping key under apiKey', async () => {
    const e = await loadYaml(
      `providers:\n  a:\n    kind: openai\n    apiKey: { ${KEY} }\n    chat: { models: { fast: gpt-4o-mini } }\nroutes:\n  chat: { providers: [a] }\n`,
    );
    expect(issues(e)).toEqual([
      'providers.a.apiKey.env: required, but missing (a string)',
      'providers.a.apiKey.[redacted]: unknown key',
    ]);
  });

  it('YAML headers: { "Authorization: Bearer sk-..." }: not a header name, redacted', async () => {
    const e = await loadYaml(
      `providers:\n  a:\n    kind: openai\n    apiKey: { env: OPENAI_API_KEY }\n    headers: { "Authorization: Bearer ${KEY}" }\n    chat: { models: { fast: gpt-4o-mini } }\nroutes:\n  chat: { providers: [a] }\n`,
    );
    expect(issues(e)).toEqual([
      "providers.a.headers.[redacted]: must be an HTTP header name: letters, digits and ! # $ % & ' * + - . ^ _ ` | ~ only (no space, colon or other character)",
    ]);
  });

  it('a header name that is a key, a key as a route entry, a key as a provider name', () => {
    const provider = { kind: 'openai', apiKey: { env: 'OPENAI_API_KEY' }, chat: { models: { fast: 'm' } } };
    expect(
      issues(
        parseError({
          providers: { a: { ...provider, headers: { [KEY]: 5 } } },
          routes: { chat: { providers: ['a'] } },
        }),
      ),
    ).toEqual(['providers.a.headers.[redacted]: expected a string or { env: "VARIABLE_NAME" }']);
    expect(
      issues(parseError({ providers: { a: provider }, routes: { chat: { providers: [KEY] } } })),
    ).toEqual(['routes.chat.providers.0: unknown provider "[redacted]"; the config has "a"']);
    expect(
      issues(
        parseError({
          providers: { [KEY]: { ...provider, chat: { models: {} } } },
          routes: { chat: { providers: [KEY] } },
        }),
      ),
    ).toEqual(['providers.[redacted].chat.models: must map at least one name']);
  });

  it('an ordinary header name is still shown; zod type errors are worded', () => {
    const provider = { kind: 'openai', apiKey: { env: 'OPENAI_API_KEY' }, chat: { models: { fast: 7 } } };
    expect(
      issues(
        parseError({
          providers: { a: { ...provider, headers: { 'x-team': 5 } } },
          routes: { chat: { providers: ['a'] } },
        }),
      ),
    ).toEqual([
      'providers.a.headers.x-team: expected a string or { env: "VARIABLE_NAME" }',
      'providers.a.chat.models.fast: expected a string, got a number',
    ]);
  });
});
