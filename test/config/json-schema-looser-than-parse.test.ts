import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configJsonSchema, parseConfig } from '../../src/config/index.js';
import { ConfigError } from '../../src/errors/config-error.js';
import { type Loose, validConfig } from './helpers.js';

// The published JSON Schema is what editors check a YAML/JSON config against: every config it
// accepts that parseConfig rejects is a red squiggle the user never sees. Each case below is a
// rule parseConfig enforces that a JSON Schema can say; both must reject it, and both must
// accept the valid ones. (`format: uri` is left unchecked here: editors differ on it, and the
// http(s) rule is a pattern of its own.)
// strictRequired off: `anyOf: [{ required: ['tts'] }, ...]` names properties declared beside it.
const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true, validateFormats: false });
const validate = ajv.compile(configJsonSchema());
const env = { OPENAI_API_KEY: 'sk-test', REDIS_URL: 'redis://127.0.0.1:6379' };

function schemaAccepts(config: unknown): boolean {
  return validate(config) === true;
}

function parseAccepts(config: unknown): boolean {
  try {
    parseConfig(config, { env });
    return true;
  } catch (error) {
    if (error instanceof ConfigError) return false;
    throw error;
  }
}

/** validConfig() changed by `edit`. */
function edited(edit: (config: Record<string, Loose>) => void): Record<string, Loose> {
  const config = validConfig();
  edit(config);
  return config;
}

const anthropic = (extra: Record<string, Loose> = {}) => ({
  kind: 'anthropic',
  apiKey: 'sk-ant-test',
  chat: { models: { fast: 'claude-haiku-4-5' } },
  ...extra,
});

const invalid: Record<string, Record<string, Loose>> = {
  'an empty voices map': edited((c) => {
    c.providers.openai.tts.voices = {};
  }),
  'an empty models map': edited((c) => {
    c.providers['ec2-a'].chat.models = {};
  }),
  'no provider at all': edited((c) => {
    c.providers = {};
    c.routes = {};
  }),
  'a route naming one provider twice': edited((c) => {
    c.routes.tts.providers = ['ec2-a', 'openai', 'ec2-a'];
  }),
  'an API key with a trailing newline': edited((c) => {
    c.providers.openai.apiKey = 'sk-test\n';
  }),
  'an API key with a character past Latin-1': edited((c) => {
    c.providers.openai.apiKey = 'sk-test\u2019';
  }),
  'a header value with a control character': edited((c) => {
    c.providers['ec2-a'].headers = { 'X-Trace': 'a\tb' };
  }),
  'a baseUrl that is not http(s)': edited((c) => {
    c.providers['ec2-a'].baseUrl = 'ftp://127.0.0.1/v1';
  }),
  'a baseUrl with credentials': edited((c) => {
    c.providers['ec2-a'].baseUrl = 'http://user:secret@127.0.0.1:8801/v1';
  }),
  'a baseUrl with only a user name': edited((c) => {
    c.providers['ec2-a'].baseUrl = 'https://user@127.0.0.1/v1';
  }),
  'a provider with no capability section': edited((c) => {
    c.providers.bare = { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:8803/v1' };
  }),
  'a route not named tts/stt/chat without capability': edited((c) => {
    c.routes['tts-premium'] = { providers: ['openai'] };
  }),
  'a route named tts declaring another capability': edited((c) => {
    c.routes.tts.capability = 'stt';
  }),
  'a route named tts whose name field says otherwise': edited((c) => {
    c.routes.tts.name = 'stt';
  }),
  'a tts route with the stt mid-stream policy': edited((c) => {
    c.routes.tts.midStream = 'replay';
  }),
  'an stt route with the chat mid-stream policy': edited((c) => {
    c.routes.stt.midStream = 'continue';
  }),
  'a named chat route with the tts mid-stream policy': edited((c) => {
    c.routes['chat-fast'] = { capability: 'chat', providers: ['ec2-a'], midStream: 'resume' };
  }),
  'a hop-by-hop header': edited((c) => {
    c.providers['ec2-a'].headers = { Connection: 'close' };
  }),
  'a Host header in any case': edited((c) => {
    c.providers['ec2-a'].headers = { hOsT: 'example.com' };
  }),
  'a WebSocket handshake header': edited((c) => {
    c.providers['ec2-a'].headers = { 'Sec-WebSocket-Protocol': 'x' };
  }),
  'an Authorization header beside apiKey': edited((c) => {
    c.providers.openai.headers = { authorization: 'Bearer other' };
  }),
  'an anthropic header voxroute sets': {
    providers: { claude: anthropic({ headers: { 'X-Api-Key': 'other' } }) },
    routes: { chat: { providers: ['claude'] } },
  },
  'kind openai at another sample rate': edited((c) => {
    c.providers.openai.tts.sampleRate = 16000;
  }),
  'kind openai streaming sse from tts-1': edited((c) => {
    c.providers.openai.tts = { model: 'tts-1', voices: { agent: 'alloy' }, streamFormat: 'sse' };
  }),
  'sse with responseFormat wav': edited((c) => {
    c.providers['ec2-a'].tts.streamFormat = 'sse';
  }),
  'a language that is not a language tag': edited((c) => {
    c.providers['ec2-a'].stt.language = 'en_US';
  }),
  "Deepgram's multilingual value on another kind": edited((c) => {
    c.providers['ec2-a'].stt.language = 'Multi';
  }),
  'a health URL that is not redis': edited((c) => {
    c.health = { store: 'redis', url: 'http://127.0.0.1:6379' };
  }),
  // Rules the schema already said: kept so they stay said.
  'an idle timeout of 0 ms': edited((c) => {
    c.routes.tts.idleTimeoutMs = 0;
  }),
  'a hedge share above 1': edited((c) => {
    c.routes.tts.hedge = { after: 'auto', maxShare: 2 };
  }),
  'an unknown strategy': edited((c) => {
    c.routes.tts.strategy = 'fastest';
  }),
  'an unknown key': edited((c) => {
    c.routes.tts.retries = 3;
  }),
};

const valid: Record<string, Record<string, Loose>> = {
  'the base config': validConfig(),
  'a named route with its capability and policy': edited((c) => {
    c.routes['tts-premium'] = { capability: 'tts', providers: ['openai'], midStream: 'resume' };
    c.routes.stt.midStream = 'replay';
    c.routes.tts.midStream = 'error';
  }),
  'routes carrying their own names and capabilities': edited((c) => {
    c.routes.tts.name = 'tts';
    c.routes.tts.capability = 'tts';
    c.routes.chat = { name: 'chat', providers: ['ec2-a'], midStream: 'continue' };
  }),
  'headers the client may send': edited((c) => {
    c.providers['ec2-a'].headers = { Authorization: 'Bearer x', 'X-Hosted-By': 'ec2', 'Sec-Fetch': 'y' };
    c.providers.openai.headers = { 'OpenAI-Organization': { env: 'OPENAI_API_KEY' } };
  }),
  'an anthropic beta header': {
    providers: { claude: anthropic({ headers: { 'anthropic-beta': 'x' } }) },
    routes: { chat: { providers: ['claude'] } },
  },
  'Latin-1 text in a key, URLs in upper case, an @ in a path': edited((c) => {
    c.providers.openai.apiKey = 'sk-caf\u00e9';
    c.providers.openai.baseUrl = 'HTTPS://api.openai.com/v1';
    c.providers['ec2-a'].baseUrl = 'http://127.0.0.1:8801/v1/@me';
  }),
  'kind openai at 24 kHz streaming sse from its default model': edited((c) => {
    c.providers.openai.tts.sampleRate = 24000;
    c.providers.openai.tts.streamFormat = 'sse';
    c.providers['ec2-a'].tts.sampleRate = 16000;
  }),
  'a redis health URL, literal or from the environment': edited((c) => {
    c.health = { store: 'redis', url: 'rediss://:pw@cache.internal:6380/0' };
  }),
  'language tags with a region, a script or an extension': edited((c) => {
    c.providers['ec2-a'].stt.language = 'zh-Hant-TW';
    c.providers.dg = { kind: 'deepgram', apiKey: 'dg-key', stt: { language: 'multi' } };
    c.routes.stt.providers = ['ec2-a', 'dg'];
  }),
  'a health URL from the environment': edited((c) => {
    c.health = { store: 'redis', url: { env: 'REDIS_URL' } };
  }),
};

describe('the JSON Schema rejects what parseConfig rejects', () => {
  it.each(Object.keys(invalid))('%s', (name) => {
    const config = invalid[name];
    expect({ parse: parseAccepts(config), schema: schemaAccepts(config) }).toEqual({
      parse: false,
      schema: false,
    });
  });

  it.each(Object.keys(valid))('accepts %s, as parseConfig does', (name) => {
    const config = valid[name];
    const accepted = schemaAccepts(config);
    expect({
      parse: parseAccepts(config),
      schema: accepted,
      errors: accepted ? null : validate.errors,
    }).toEqual({ parse: true, schema: true, errors: null });
  });

  it('accepts the example YAML config, as parseConfig does', async () => {
    const text = await readFile(new URL('../../examples/voxroute.config.yaml', import.meta.url), 'utf8');
    const example = parse(text);
    expect(schemaAccepts(example)).toBe(true);
    expect(parseAccepts(example)).toBe(true);
  });
});
