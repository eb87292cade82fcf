import { checkHttpUrl, MAX_TIMER_MS } from '../config-fields/fields.js';
import { caseDuplicateHeaders, headerNameProblem } from '../config-fields/header-names.js';
import { checkSecretText, EnvSecretRef, secretTextProblem } from '../config-fields/secret.js';
import type { ConfigIssue } from '../errors/config-error.js';
import { isLanguageTag, isMultilingualTag } from '../internal/language-tag.js';
import {
  ANTHROPIC_DEFAULT_BASE_URL,
  ANTHROPIC_DEFAULT_MAX_TOKENS,
  ANTHROPIC_VERSION,
} from '../providers/anthropic/options.js';
import {
  OPENAI_BASE_URL,
  OPENAI_DEFAULT_TTS_MODEL,
  OPENAI_PCM_SAMPLE_RATE,
} from '../providers/openai/config.js';
import { sseResponseFormatIssues } from '../providers/openai/sse-response-format.js';
import { openaiTtsWireIssues } from '../providers/openai/wire-fixed.js';
import { CAPABILITIES } from './capability.js';
import { checkConfigReferences } from './cross-checks.js';
import { checkHealthUrl, DEFAULT_HEALTH_KEY_PREFIX } from './health.js';
import type { ParsedConfig } from './resolve.js';

/**
 * The zod-free fast path of parseConfig: parses the common shapes of a router config (providers
 * of kind `openai`, `openai-compatible` and `anthropic`, every route setting, `defaults.routes`,
 * `health`) the way routerConfigSchema() does, defaults included, without loading zod (about
 * 100 ms; docs/decisions.md "A zod-free fast path for valid configs"). It only ever vouches for
 * a config: anything it does not recognise or that is invalid (another provider kind, a getter,
 * a class instance, an `undefined` value, a URL with spaces, a value out of range...) returns
 * `undefined`, and parseConfig then runs the zod schema, which accepts or reports it with its
 * usual messages. test/config/fast-parse.test.ts checks on every test config and on generated
 * ones that whatever this accepts, the schema accepts with the same output.
 */
export function fastParseConfig(input: unknown): ParsedConfig | undefined {
  try {
    return parseTop(input);
  } catch (error) {
    if (error === UNVOUCHED) return undefined;
    throw error;
  }
}

/** Thrown (never escapes fastParseConfig) when the fast path cannot vouch for a value. */
const UNVOUCHED = Symbol('unvouched');

function need(condition: boolean): asserts condition {
  if (!condition) throw UNVOUCHED;
}

type Plain = Record<string, unknown>;

/**
 * `value` as a plain object (prototype Object.prototype or null) whose own properties are all
 * enumerable data properties with string keys, none `undefined`, and none outside `allowed`
 * when given (the schema's objects are strict).
 */
function plain(value: unknown, allowed?: ReadonlySet<string>): Plain {
  need(typeof value === 'object' && value !== null);
  const proto = Object.getPrototypeOf(value);
  need(proto === Object.prototype || proto === null);
  need(Object.getOwnPropertySymbols(value).length === 0);
  const descriptors = Object.getOwnPropertyDescriptors(value);
  for (const key in descriptors) {
    const descriptor = descriptors[key] as PropertyDescriptor;
    need(descriptor.enumerable === true && 'value' in descriptor && descriptor.value !== undefined);
    need(key !== '__proto__' && (allowed === undefined || allowed.has(key)));
  }
  return value as Plain;
}

const keys = (...names: string[]): ReadonlySet<string> => new Set(names);

/** A record: plain object, each key and value checked; a fresh object. */
function record<T>(
  value: unknown,
  key: (name: string) => boolean,
  item: (v: unknown) => T,
): Record<string, T> {
  const source = plain(value);
  const out: Record<string, T> = {};
  for (const name of Object.keys(source)) {
    need(key(name));
    out[name] = item(source[name]);
  }
  return out;
}

function str(value: unknown, min = 1): string {
  need(typeof value === 'string' && value.length >= min);
  return value;
}

/** languageSchema of the kinds it parses (none takes Deepgram's `multi`): a BCP 47 tag, not `multi`. */
function language(value: unknown): string {
  need(isLanguageTag(value) && !isMultilingualTag(value));
  return value;
}

function num(value: unknown, min: number, max = Number.POSITIVE_INFINITY): number {
  need(typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max);
  return value;
}

function int(value: unknown, min: number, max: number): number {
  need(Number.isSafeInteger(value));
  return num(value, min, max);
}

/** msSchema: whole ms, > 0, <= MAX_TIMER_MS. */
const ms = (value: unknown) => int(value, 1, MAX_TIMER_MS);

function oneOf<T extends string | boolean>(value: unknown, allowed: readonly T[]): T {
  need(allowed.includes(value as T));
  return value as T;
}

/** Sets `out[name]` to `parse(source[name])` when present, else to `fallback` when given. */
function field<T>(out: Plain, source: Plain, name: string, parse: (v: unknown) => T, fallback?: T): void {
  if (name in source) out[name] = parse(source[name]);
  else if (fallback !== undefined) out[name] = fallback;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `{ env: 'NAME' }` -> the variable's name. */
function envName(value: unknown): string {
  const ref = plain(value, ENV_KEYS);
  need(typeof ref.env === 'string' && ENV_NAME.test(ref.env));
  return ref.env;
}
const ENV_KEYS = keys('env');

/** headerTextSchema: a non-empty string an HTTP header can carry. */
function headerText(value: unknown): string {
  need(secretTextProblem(str(value)) === undefined);
  return value as string;
}

/** secretSchema: headerText, or `{ env }` -> EnvSecretRef checked by checkSecretText. */
function secret(value: unknown): string | EnvSecretRef {
  return typeof value === 'string' ? headerText(value) : new EnvSecretRef(envName(value), checkSecretText);
}

/**
 * httpUrlSchema: only URLs that zod's URL check leaves as they are (printable ASCII, no space,
 * `http://` or `https://` in lower case), without credentials, trailing slashes trimmed; or
 * `{ env }` -> EnvSecretRef checked by checkHttpUrl.
 */
function httpUrl(value: unknown): string | EnvSecretRef {
  if (typeof value !== 'string') return new EnvSecretRef(envName(value), checkHttpUrl);
  need(/^https?:\/\/[\x21-\x7e]+$/.test(value) && URL.parse(value) !== null);
  const checked = checkHttpUrl(value);
  need(typeof checked === 'string');
  return checked;
}

const idMap = (value: unknown) => {
  const map = record(value, (name) => name.length > 0, str);
  need(Object.keys(map).length > 0);
  return map;
};

/**
 * headersSchema: names the HTTP client can send and does not set itself (headerNameProblem), no
 * two equal up to case (caseDuplicateHeaders).
 */
function headers(value: unknown): Plain {
  const out = record(value, (name) => headerNameProblem(name) === undefined, secret);
  need(caseDuplicateHeaders(Object.keys(out)).length === 0);
  return out;
}

/** No header in `reserved` (compared case-insensitively): the adapter sets it. */
function noReserved(provider: Plain, reserved: readonly string[]): void {
  for (const name of Object.keys(provider.headers as Plain)) need(!reserved.includes(name.toLowerCase()));
}

const CHAT_KEYS = keys('models');
const COMPATIBLE_CHAT_KEYS = keys('models', 'continueFinalMessage');
const TTS_KEYS = keys('model', 'voices', 'responseFormat', 'streamFormat', 'sampleRate');
const STT_KEYS = keys('model', 'streaming', 'language');

function openaiSection(name: 'chat' | 'tts' | 'stt', value: unknown, compatible: boolean): Plain {
  const out: Plain = {};
  if (name === 'chat') {
    const source = plain(value, compatible ? COMPATIBLE_CHAT_KEYS : CHAT_KEYS);
    field(out, source, 'models', idMap);
    need('models' in out);
    field(out, source, 'continueFinalMessage', (v) => oneOf(v, [true, false]));
  } else if (name === 'tts') {
    const source = plain(value, TTS_KEYS);
    field(out, source, 'model', str, compatible ? undefined : OPENAI_DEFAULT_TTS_MODEL);
    field(out, source, 'voices', idMap);
    need('voices' in out);
    field(out, source, 'responseFormat', (v) => oneOf(v, ['pcm', 'wav']), 'pcm');
    field(out, source, 'streamFormat', (v) => oneOf(v, ['audio', 'sse']), 'audio');
    field(out, source, 'sampleRate', (v) => int(v, 8_000, 192_000), OPENAI_PCM_SAMPLE_RATE);
  } else {
    const source = plain(value, STT_KEYS);
    field(out, source, 'model', str);
    need('model' in out);
    field(out, source, 'streaming', (v) => oneOf(v, [true, false]), true);
    field(out, source, 'language', language);
  }
  return out;
}

const OPENAI_KEYS = keys('kind', 'baseUrl', 'apiKey', 'headers', 'chat', 'tts', 'stt');
const ANTHROPIC_KEYS = keys('kind', 'baseUrl', 'apiKey', 'authHeader', 'anthropicVersion', 'headers', 'chat');
const ANTHROPIC_CHAT_KEYS = keys('models', 'maxTokens');

function provider(value: unknown): Plain {
  const kind = (plain(value) as { kind?: unknown }).kind;
  const out: Plain = { kind };
  if (kind === 'openai' || kind === 'openai-compatible') {
    const source = plain(value, OPENAI_KEYS);
    field(out, source, 'baseUrl', httpUrl, kind === 'openai' ? OPENAI_BASE_URL : undefined);
    field(out, source, 'apiKey', secret);
    need('baseUrl' in out && (kind === 'openai-compatible' || 'apiKey' in out));
    field(out, source, 'headers', headers, {});
    for (const name of ['chat', 'tts', 'stt'] as const) {
      if (name in source) out[name] = openaiSection(name, source[name], kind === 'openai-compatible');
    }
    // What OpenAI cannot deliver (a tts.sampleRate other than 24000...): the schema reports it.
    need(kind === 'openai-compatible' || openaiTtsWireIssues(out.tts).length === 0);
    need(sseResponseFormatIssues(out.tts).length === 0);
    if (out.apiKey !== undefined) noReserved(out, ['authorization']);
    return out;
  }
  need(kind === 'anthropic');
  const source = plain(value, ANTHROPIC_KEYS);
  field(out, source, 'baseUrl', httpUrl, ANTHROPIC_DEFAULT_BASE_URL);
  field(out, source, 'apiKey', secret);
  need('apiKey' in out);
  field(out, source, 'authHeader', (v) => oneOf(v, ['x-api-key', 'bearer']), 'x-api-key');
  field(out, source, 'anthropicVersion', headerText, ANTHROPIC_VERSION);
  field(out, source, 'headers', headers, {});
  if ('chat' in source) {
    const chat = plain(source.chat, ANTHROPIC_CHAT_KEYS);
    const section: Plain = {};
    field(section, chat, 'models', idMap);
    need('models' in section);
    field(
      section,
      chat,
      'maxTokens',
      (v) => int(v, 1, Number.MAX_SAFE_INTEGER),
      ANTHROPIC_DEFAULT_MAX_TOKENS,
    );
    out.chat = section;
  }
  noReserved(out, ['x-api-key', 'authorization', 'anthropic-version']);
  return out;
}

const HEDGE_KEYS = keys('after', 'maxShare');

function hedge(value: unknown): false | Plain {
  if (value === false) return false;
  const source = plain(value, HEDGE_KEYS);
  const out: Plain = {};
  field(out, source, 'after', (v) => (typeof v === 'string' ? oneOf(v, ['auto', 'p95', 'p99']) : ms(v)));
  need('after' in out);
  field(out, source, 'maxShare', (v) => num(v, 0, 1));
  return out;
}

const amounts = (value: unknown) =>
  record(
    value,
    () => true,
    (v) => num(v, 0),
  );

const SETTINGS: Record<string, (value: unknown) => unknown> = {
  strategy: (v) => oneOf(v, ['latency', 'priority', 'weighted', 'cost']),
  weights: amounts,
  costs: amounts,
  costLatencyFactor: (v) => num(v, 1),
  inFlightWeight: (v) => num(v, 0),
  probeAfterMs: ms,
  hedge,
  firstChunkTimeoutMs: (v) => (v === 'auto' || v === false ? v : ms(v)),
  idleTimeoutMs: ms,
  totalTimeoutMs: ms,
  connectTimeoutMs: ms,
  midStream: (v) => oneOf(v, ['error', 'resume', 'replay', 'continue']),
  ewmaDecayMs: ms,
};
const SETTING_KEYS = keys(...Object.keys(SETTINGS));
const ROUTE_KEYS = keys('name', 'capability', 'providers', ...SETTING_KEYS);

function settings(out: Plain, source: Plain): Plain {
  for (const name in SETTINGS) field(out, source, name, SETTINGS[name] as (v: unknown) => unknown);
  return out;
}

function route(value: unknown): Plain {
  const source = plain(value, ROUTE_KEYS);
  const out: Plain = {};
  // `name` (a resolved config's copy of the key): checkConfigReferences checks it is the key.
  field(out, source, 'name', (v) => str(v, 0));
  field(out, source, 'capability', (v) => oneOf(v, CAPABILITIES));
  const providers = source.providers;
  need(Array.isArray(providers) && providers.length > 0);
  out.providers = Array.from(providers, (name) => str(name));
  return settings(out, source);
}

const TOP_KEYS = keys('$schema', 'providers', 'routes', 'defaults', 'health');
const DEFAULTS_KEYS = keys('routes');
const HEALTH_KEYS = keys('store', 'url', 'keyPrefix');
const isName = (name: string) => name.length > 0;

function parseTop(input: unknown): ParsedConfig {
  const source = plain(input, TOP_KEYS);
  const out: Plain = {};
  field(out, source, '$schema', (v) => str(v, 0));
  const providers = record(source.providers, isName, provider);
  need(Object.keys(providers).length > 0);
  out.providers = providers;
  out.routes = record(source.routes, isName, route);
  field(out, source, 'defaults', (v) => {
    const defaults: Plain = {};
    field(defaults, plain(v, DEFAULTS_KEYS), 'routes', (r) => settings({}, plain(r, SETTING_KEYS)));
    return defaults;
  });
  field(out, source, 'health', (v) => {
    const health = plain(v, HEALTH_KEYS);
    need(health.store === 'redis' && 'url' in health);
    const keyPrefix = 'keyPrefix' in health ? str(health.keyPrefix) : DEFAULT_HEALTH_KEY_PREFIX;
    need(keyPrefix.length <= 64);
    const url = secret(health.url);
    if (typeof url === 'string') {
      const issues: ConfigIssue[] = [];
      checkHealthUrl(url, issues);
      need(issues.length === 0);
    }
    return { store: 'redis', url, keyPrefix };
  });
  let referencesOk = true;
  checkConfigReferences(out, {
    addIssue: () => {
      referencesOk = false;
    },
  });
  need(referencesOk);
  return out as ParsedConfig;
}
