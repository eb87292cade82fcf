import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.doUnmock('selfsigned');
  vi.resetModules();
});

describe('startMockServer({ tls: true }) without the optional peer `selfsigned`', () => {
  it('rejects with an Error naming the package to install, and starts no server', async () => {
    vi.resetModules();
    vi.doMock('selfsigned', () => {
      throw new Error("Cannot find package 'selfsigned'");
    });
    const { startMockServer } = await import('../../src/testing/mock-server.js');
    const provider = { requests: [], handle: async () => new Response('unused') };
    const error = await startMockServer({ provider, tls: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(
      'voxroute/testing: a TLS mock server needs the `selfsigned` package (npm i -D selfsigned)',
    );
    expect((error as Error).cause).toBeInstanceOf(Error);
    // A plain server does not need it.
    const plain = await startMockServer({ provider });
    expect(plain.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(plain.ca).toBeUndefined();
    await plain.close();
  });
});
