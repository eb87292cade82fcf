import { afterEach, describe, expect, it, vi } from 'vitest';

// 'stub': an undici whose Agent has no `dispatch`, as Bun's built-in `undici` module gives;
// 'missing': an undici that cannot be imported.
const undici = vi.hoisted(() => ({ mode: 'stub' as 'stub' | 'missing' }));
vi.mock('../../src/transport/agent.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/transport/agent.js')>();
  return {
    ...original,
    loadUndici: async () => {
      if (undici.mode === 'missing') throw new Error("Cannot find package 'undici'");
      return { Agent: class {} };
    },
  };
});

const { createHttpTransport } = await import('../../src/transport/http-transport.js');

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the default transport when undici has no working dispatcher', () => {
  it.each(['stub', 'missing'] as const)(
    'undici %s: sends the request with the global fetch and reads its body',
    async (mode) => {
      undici.mode = mode;
      const calls: string[] = [];
      vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
        calls.push(`${init.method} ${url}`);
        return new Response(new Uint8Array([1, 2, 3]), { status: 200 });
      });
      const transport = createHttpTransport();
      const response = await transport.request({
        provider: 'p',
        method: 'POST',
        url: 'http://127.0.0.1:9/v1/audio/speech',
        body: '{}',
      });
      const bytes: number[] = [];
      for await (const chunk of response.body) bytes.push(...chunk);
      expect(bytes).toEqual([1, 2, 3]);
      expect(calls).toEqual(['POST http://127.0.0.1:9/v1/audio/speech']);
      await transport.close();
    },
  );
});
