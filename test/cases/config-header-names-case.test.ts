/**
 * A provider's `headers` holding two names that differ only in case (`X-Foo` and `x-foo`):
 * HTTP field names are case-insensitive, so they are one header, which a request would send
 * twice or with one value silently replacing the other. It is a ConfigError with one issue at
 * the path of the later name, naming the earlier one, thrown by parseConfig/createRouter before
 * any provider is contacted (for every kind with `headers`, through parseConfig's fast path and
 * through the schema). The server here speaks HTTP on its own and counts the requests it gets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouter, parseConfig } from '../../src/index.js';
import { configIssuesOf } from '../helpers/config-issues.js';
import { type LoopbackServer, startLoopbackServer } from '../helpers/loopback.js';

const same = (first: string) =>
  `is the same header as '${first}' (header names are case-insensitive): keep one of them`;
const KEY = ['case', 'header', 'key'].join('-');

let server: LoopbackServer;
let requests = 0;
beforeAll(async () => {
  server = await startLoopbackServer((_request, res) => {
    requests++;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(
      'data: {"choices":[{"index":0,"delta":{"content":"ok."},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
    );
  });
});
afterAll(() => server.close());

type Kind = 'openai-compatible' | 'openai' | 'anthropic' | 'cartesia';

/** A config with one provider `a` of `kind` and `headers`, on a chat or tts route. */
function config(headers: Record<string, unknown>, kind: Kind = 'openai-compatible') {
  const a =
    kind === 'cartesia'
      ? { kind, baseUrl: server.origin, apiKey: KEY, headers, tts: { voices: { agent: 'v' } } }
      : kind === 'anthropic'
        ? { kind, baseUrl: server.origin, apiKey: KEY, headers, chat: { models: { fast: 'm' } } }
        : kind === 'openai'
          ? { kind, baseUrl: `${server.origin}/v1`, apiKey: KEY, headers, chat: { models: { fast: 'm' } } }
          : { kind, baseUrl: `${server.origin}/v1`, headers, chat: { models: { fast: 'm' } } };
  return {
    providers: { a },
    routes: kind === 'cartesia' ? { tts: { providers: ['a'] } } : { chat: { providers: ['a'] } },
  };
}

/** The issues of the ConfigError that `run` throws, as `path: message`. */
const issuesOf = configIssuesOf;

describe('header names that differ only in case are a ConfigError at the later one', () => {
  it('X-Foo then x-foo: one issue at providers.a.headers.x-foo naming X-Foo; createRouter sends nothing', () => {
    const headers = { 'X-Foo': 'one', 'x-foo': 'two' };
    expect(issuesOf(() => parseConfig(config(headers)))).toEqual([
      `providers.a.headers.x-foo: ${same('X-Foo')}`,
    ]);
    const before = requests;
    expect(issuesOf(() => createRouter(config(headers) as never))).toEqual([
      `providers.a.headers.x-foo: ${same('X-Foo')}`,
    ]);
    expect(requests).toBe(before);
  });

  it('the order decides which is reported: x-foo then X-Foo is an issue at X-Foo naming x-foo', () => {
    expect(issuesOf(() => parseConfig(config({ 'x-foo': 'one', 'X-Foo': 'two' })))).toEqual([
      `providers.a.headers.X-Foo: ${same('x-foo')}`,
    ]);
  });

  it('three spellings of one name: an issue at each later one, in order, each naming the first', () => {
    expect(
      issuesOf(() =>
        parseConfig(config({ 'X-Foo': 'a', Accept: 'b', 'x-foo': 'c', 'X-FOO': { env: 'NOPE' } })),
      ),
    ).toEqual([`providers.a.headers.x-foo: ${same('X-Foo')}`, `providers.a.headers.X-FOO: ${same('X-Foo')}`]);
  });

  it.each([
    ['openai', 'Anthropic-Beta', 'anthropic-beta'],
    ['anthropic', 'Anthropic-Beta', 'ANTHROPIC-BETA'],
    ['cartesia', 'X-Request-Tag', 'x-request-tag'],
  ] as const)('kind %s: %s then %s is an issue at the second', (kind, first, second) => {
    expect(issuesOf(() => parseConfig(config({ [first]: 'one', [second]: 'two' }, kind)))).toEqual([
      `providers.a.headers.${second}: ${same(first)}`,
    ]);
  });

  it('a value is never quoted in the issue', () => {
    const [issue] = issuesOf(() => parseConfig(config({ 'X-Token': 'value-one', 'x-token': 'value-two' })));
    expect(issue).toBe(`providers.a.headers.x-token: ${same('X-Token')}`);
    expect(issue).not.toContain('value-');
  });

  it('distinct names still parse', () => {
    const parsed = parseConfig(config({ 'X-Foo': 'one', 'X-Bar': 'two' }));
    expect((parsed.providers.a as { headers: Record<string, string> }).headers).toEqual({
      'X-Foo': 'one',
      'X-Bar': 'two',
    });
  });
});
