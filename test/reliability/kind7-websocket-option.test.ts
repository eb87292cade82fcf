/**
 * Kind 7: RouterOptions.WebSocket is the constructor WebSocket providers use (the attempt
 * context carries a transport built from it), so a caller (or msw's `ws` API) can intercept
 * WebSocket providers at the router level. The server speaks Cartesia's TTS socket on its own.
 */
import { WebSocket as UndiciWebSocket } from 'undici';
import { describe, expect, it } from 'vitest';
import type { RouterConfig } from '../../src/index.js';
import { sendCartesiaContext } from '../cases/wire/cartesia-context.js';
import { concat, drain, pcmSignal, router, wsServer } from '../cases/wire/servers.js';

const AUDIO = pcmSignal(2400, 24_000, 1);

describe('kind 7: RouterOptions.WebSocket is used', () => {
  it('a Cartesia WebSocket TTS call goes through the caller’s WebSocket constructor', async () => {
    const urls: string[] = [];
    const server = await wsServer((ws, req) => {
      urls.push(req.url ?? '');
      ws.on('message', (data) => {
        const context = (JSON.parse(String(data)) as { context_id?: string }).context_id;
        sendCartesiaContext(ws, context, AUDIO);
      });
    });
    const made: string[] = [];
    class Recording extends UndiciWebSocket {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        made.push(String(url));
      }
    }
    const r = router(
      {
        providers: {
          c: {
            kind: 'cartesia',
            baseUrl: server.url,
            apiKey: 'key-1234567890',
            tts: { voices: { agent: 'v1' }, transport: 'websocket' },
          },
        },
        routes: { tts: { providers: ['c'], strategy: 'priority' } },
      } as RouterConfig,
      { WebSocket: Recording as unknown as typeof globalThis.WebSocket },
    );
    async function* text() {
      yield 'Hello there.';
    }
    const { items, error } = await drain(r.tts({ text: text(), voice: 'agent' }));
    expect(error).toBeUndefined();
    expect(concat(items.map((c) => c.data)).equals(AUDIO)).toBe(true);
    expect(made).toHaveLength(1);
    expect(made[0]).toContain('/tts/websocket');
    expect(urls).toHaveLength(1);
  });
});
