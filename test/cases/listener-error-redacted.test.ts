/**
 * A `router.on()` listener that throws is reported to the logger: the report never holds a
 * secret, the config's own (here the provider's API key, whole and base64) or anything shaped
 * like a credential, whatever the listener's error quotes (e.g. a telemetry client that failed
 * with its URL and key in the message). The listener's own error object is left unchanged. The
 * TTS server here speaks the wire on its own (node:http on loopback).
 */
import { describe, expect, it } from 'vitest';
import { answerPcm, httpServer, pcmSignal, router } from './wire/servers.js';

const KEY = 'sk-test-SECRET123456';
const AUDIO = pcmSignal(2400, 24_000, 3);

describe('a throwing listener reported to the logger', () => {
  it('is reported without the secrets its error quotes', async () => {
    const wire = await httpServer((_req, res) => answerPcm(res, AUDIO));
    const warned: unknown[][] = [];
    const r = router(
      {
        providers: {
          gpu: {
            kind: 'openai-compatible',
            baseUrl: `${wire.url}/v1`,
            apiKey: KEY,
            tts: { voices: { agent: 'v' } },
          },
        },
        routes: { tts: { providers: ['gpu'] } },
      },
      { logger: { warn: (...args: unknown[]) => void warned.push(args) } },
    );
    const thrown = new Error(
      `exporter failed: key=${KEY} basic=${Buffer.from(KEY).toString('base64')} other=ghp_${'a1B2'.repeat(9)}`,
    );
    const message = thrown.message;
    r.on('attempt', () => {
      throw thrown;
    });
    let bytes = 0;
    for await (const chunk of r.tts({ text: 'Hello there.', voice: 'agent' })) bytes += chunk.data.byteLength;
    expect(bytes).toBe(AUDIO.byteLength);
    expect(warned).toEqual([
      [
        'A router event listener threw',
        { error: 'Error: exporter failed: key=[redacted] basic=[redacted] other=[redacted]' },
      ],
    ]);
    expect(thrown.message).toBe(message);
  });
});
