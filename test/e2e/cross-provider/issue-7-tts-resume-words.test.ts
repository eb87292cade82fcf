import { describe, expect, it } from 'vitest';
import type { AudioChunk } from '../../../src/index.js';
import { createCartesiaMock, createOpenAiCompatibleMock } from '../../../src/testing/index.js';
import { drain, router, serve } from './helpers.js';

describe('issue 7: TTS resume narrowed by word timestamps', () => {
  it('resumes a sentence cut mid-way after its last word fully heard, not from its start', async () => {
    const first = 'Your table is booked. ';
    const second = 'We will send a reminder one hour before the reservation starts.';
    // Cartesia over its WebSocket (word timestamps on), cut after 8 chunks of 50 ms: the caller
    // has heard 'Your' (0-240 ms by the mock's timestamps) and part of 'table'. Only the first
    // connection fails.
    const cartesia = createCartesiaMock({
      script: { 'tts-websocket': [{ chunkBytes: 2400, closeAfterChunks: 8 }] },
    });
    const backup = createOpenAiCompatibleMock();
    const [cUrl, bUrl] = await Promise.all([serve(cartesia), serve(backup)]);
    const r = router({
      providers: {
        cartesia: {
          kind: 'cartesia',
          baseUrl: cUrl,
          apiKey: 'c',
          tts: { voices: { agent: 'v' }, transport: 'websocket', addTimestamps: true },
        },
        backup: { kind: 'openai-compatible', baseUrl: `${bUrl}/v1`, tts: { voices: { agent: 'alloy' } } },
      },
      routes: { tts: { providers: ['cartesia', 'backup'], strategy: 'priority', midStream: 'resume' } },
    });
    try {
      const { items, error } = await drain<AudioChunk>(r.tts({ text: first + second, voice: 'agent' }));
      expect(error).toBeUndefined();
      expect(items.filter((c) => c.discontinuity)).toHaveLength(1);
      // The backup resumes sentence 1 after its last word fully heard, then keeps sentence 2:
      // Cartesia, which failed in this call, is not asked first again.
      expect(backup.requests.map((q) => (q.body as { input: string }).input)).toEqual([
        'table is booked.',
        second,
      ]);
      // (A look-ahead socket for sentence 2, opened when sentence 1's first byte arrived, may
      // have carried it before the failure closed it; none of its audio was heard.)
      const sent = cartesia.sockets.flatMap((s) =>
        (s.messages as { transcript?: string }[]).map((m) => m.transcript),
      );
      expect(sent[0]).toBe(first.trim());
      expect([[first.trim()], [first.trim(), second]]).toContainEqual(sent);
    } finally {
      await r.close();
    }
  });
});
