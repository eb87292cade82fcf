/**
 * An in-band auth error after a content-free preamble: a 200 stream that opens with a role
 * delta (OpenAI-compatible) or `message_start` (Anthropic, whose streams always start so) and
 * then reports an auth error. The transport counts the preamble as output, the adapter does
 * not, and the copy of the error with `partialOutput` false lost `isAuthError` (an in-band
 * error has no status to derive it from): the breaker then opened only after 5 failures, with
 * reason `consecutive-failures`. docs/health.md "What counts": it opens at once with reason
 * `auth`, `misconfigured` true. Servers speak the wire on their own (node:http on loopback).
 */
import { describe, expect, it } from 'vitest';
import { AllProvidersFailedError, type ProviderConfig, ProviderError } from '../../src/index.js';
import { drain, httpServer, router } from './wire/servers.js';

const data = (o: unknown) => `data: ${JSON.stringify(o)}\n\n`;
const event = (name: string, o: unknown) => `event: ${name}\n${data(o)}`;

const ROLE = data({ choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] });
const OPENAI_AUTH = data({
  error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
});
const START = event('message_start', {
  type: 'message_start',
  message: {
    id: 'm',
    type: 'message',
    role: 'assistant',
    content: [],
    model: 'c',
    usage: { input_tokens: 5, output_tokens: 0 },
  },
});
const anthropicError = (type: string) =>
  event('error', { type: 'error', error: { type, message: 'invalid x-api-key' } });

const cases: Array<[string, 'openai-compatible' | 'anthropic', string, string]> = [
  [
    'OpenAI-compatible: role delta, then invalid_api_key',
    'openai-compatible',
    ROLE + OPENAI_AUTH,
    'invalid_request_error',
  ],
  [
    'Anthropic: message_start, then authentication_error',
    'anthropic',
    START + anthropicError('authentication_error'),
    'authentication_error',
  ],
  [
    'Anthropic: message_start, then permission_error',
    'anthropic',
    START + anthropicError('permission_error'),
    'permission_error',
  ],
];

describe('an in-band auth error after a preamble event is still an auth error', () => {
  for (const [name, kind, body, providerType] of cases)
    it(name, async () => {
      const server = await httpServer((req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': 'text/event-stream' }).end(body);
      });
      const baseUrl = kind === 'anthropic' ? server.url : `${server.url}/v1`;
      const r = router({
        providers: {
          a: { kind, baseUrl, apiKey: 'test-key-a', chat: { models: { fast: 'm' } } } as ProviderConfig,
        },
        routes: { chat: { providers: ['a'], strategy: 'priority' } },
      });
      const breakers: string[] = [];
      r.on('breaker', (e) => breakers.push(`${e.provider}:${e.from}->${e.to}:${e.reason}`));
      const { error } = await drain(r.chat({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] }));
      expect(error).toBeInstanceOf(AllProvidersFailedError);
      const cause = (error as AllProvidersFailedError).attempts[0]!.error as ProviderError;
      expect(cause).toBeInstanceOf(ProviderError);
      expect([cause.isAuthError, cause.retryable, cause.partialOutput, cause.providerType]).toEqual([
        true,
        false,
        false,
        providerType,
      ]);
      expect(breakers).toEqual(['a:closed->open:auth']);
      expect(r.stats().providers.map((p) => [p.provider, p.breaker, p.misconfigured])).toEqual([
        ['a', 'open', true],
      ]);
      await r.close();
    });
});
