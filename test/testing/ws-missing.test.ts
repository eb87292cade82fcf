import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RouterConfig } from '../../src/index.js';

afterEach(() => {
  vi.doUnmock('ws');
  vi.resetModules();
});

const MESSAGE = 'voxroute/testing: serving WebSocket mocks needs the `ws` package (npm i -D ws)';

describe('the testing kit without the optional peer `ws`', () => {
  it('startMockProviders rejects at start for a config with a WebSocket provider; an HTTP-only config starts', async () => {
    vi.resetModules();
    vi.doMock('ws', () => {
      throw new Error("Cannot find package 'ws'");
    });
    const { startMockProviders } = await import('../../src/testing/mock-providers.js');
    const withCartesia: RouterConfig = {
      providers: {
        oa: { kind: 'openai-compatible', baseUrl: 'http://x/v1', tts: { model: 't', voices: { a: 'v' } } },
        c: { kind: 'cartesia', apiKey: 'k', tts: { model: 'sonic-2', voices: { a: 'v' } } },
      },
      routes: { tts: { providers: ['oa', 'c'] } },
    };
    const error = await startMockProviders(withCartesia).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(MESSAGE);
    expect((error as Error).cause).toBeInstanceOf(Error);

    const httpOnly: RouterConfig = {
      providers: { oa: withCartesia.providers.oa! },
      routes: { tts: { providers: ['oa'] } },
    };
    const mocks = await startMockProviders(httpOnly);
    expect(mocks.mocks.oa?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await mocks.close();
  });

  it('startMockServer rejects at start for the Deepgram mock', async () => {
    vi.resetModules();
    vi.doMock('ws', () => {
      throw new Error("Cannot find package 'ws'");
    });
    const { startMockServer } = await import('../../src/testing/mock-server.js');
    const { createDeepgramMock } = await import('../../src/testing/index.js');
    const error = await startMockServer({ provider: createDeepgramMock() }).catch((e: unknown) => e);
    expect((error as Error).message).toBe(MESSAGE);
  });
});
