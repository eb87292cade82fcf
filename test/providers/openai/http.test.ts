import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors/index.js';
import {
  createHttpEndpoint as createEndpoint,
  endpointUrl,
  requestHeaders,
} from '../../../src/providers/shared/http-endpoint.js';

describe('OpenAI endpoint', () => {
  it('joins paths onto the base URL with or without a trailing slash, keeping its query', () => {
    expect(
      endpointUrl(createEndpoint('p', 'http://10.0.0.5:8000/v1', undefined, {}), '/chat/completions'),
    ).toBe('http://10.0.0.5:8000/v1/chat/completions');
    expect(
      endpointUrl(createEndpoint('p', 'http://10.0.0.5:8000/v1//', undefined, {}), '/audio/speech'),
    ).toBe('http://10.0.0.5:8000/v1/audio/speech');
    expect(
      endpointUrl(
        createEndpoint('p', 'https://gw.example/openai/v1?api-version=2', undefined, {}),
        '/audio/speech',
      ),
    ).toBe('https://gw.example/openai/v1/audio/speech?api-version=2');
  });

  it('sets Authorization only with a key, and the key wins over a custom authorization header', () => {
    expect(createEndpoint('p', 'http://h/v1', undefined, { 'X-Team': 'a' }).headers).toEqual({
      'X-Team': 'a',
    });
    expect(createEndpoint('p', 'http://h/v1', '', {}).headers).toEqual({});
    expect(
      createEndpoint('p', 'http://h/v1', 'sk-1', { Authorization: 'Basic zzz', 'X-Team': 'a' }).headers,
    ).toEqual({
      'X-Team': 'a',
      authorization: 'Bearer sk-1',
    });
    expect(createEndpoint('p', 'http://h/v1', undefined, { Authorization: 'Basic zzz' }).headers).toEqual({
      Authorization: 'Basic zzz',
    });
  });

  it('lets the adapter own content-type and accept', () => {
    const endpoint = createEndpoint('p', 'http://h/v1', 'k', { 'Content-Type': 'text/plain', 'X-A': '1' });
    expect(requestHeaders(endpoint, { 'content-type': 'application/json' })).toEqual({
      'X-A': '1',
      authorization: 'Bearer k',
      'content-type': 'application/json',
    });
  });

  it('rejects a base URL that is not http(s) or holds credentials, naming its path', () => {
    for (const url of ['not a url', 'ftp://h/v1', 'http://user:pw@h/v1']) {
      try {
        createEndpoint('ec2', url, undefined, {});
        expect.unreachable();
      } catch (e) {
        expect(ConfigError.isInstance(e)).toBe(true);
        expect((e as ConfigError).issues[0]?.path).toEqual(['providers', 'ec2', 'baseUrl']);
        expect((e as Error).message).not.toContain('pw');
      }
    }
  });
});
