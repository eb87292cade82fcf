import type { RouterConfig } from '../../../src/index.js';
import { type HttpWire, httpServer } from './servers.js';

/** AWS's documented example credentials: requests are signed, never checked. */
export const EXAMPLE_CREDENTIALS = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
};

/** An endpoint answering 200 with `body` (event-stream bytes, written on its own), then ending the body cleanly. */
export function answeringEventStream(body: Buffer): Promise<HttpWire> {
  return httpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
      res.end(body);
    });
  });
}

/** A SageMaker TTS provider at `url` on the response stream: raw PCM at 24 kHz, voice `agent`. */
export const responseStreamTts = (url: string) => ({
  kind: 'sagemaker' as const,
  region: 'us-east-1',
  endpointName: 'voice',
  endpointUrl: url,
  credentials: EXAMPLE_CREDENTIALS,
  tts: {
    voices: { agent: 'v' },
    payload: 'raw-pcm' as const,
    sampleRate: 24_000,
    stream: 'response' as const,
  },
});

/** A config with `providers` and a `tts` route over them in that order (priority). */
export const ttsRouteOver = (
  providers: RouterConfig['providers'],
  extra: Record<string, unknown> = {},
): RouterConfig =>
  ({
    providers,
    routes: { tts: { providers: Object.keys(providers), strategy: 'priority', ...extra } },
  }) as RouterConfig;
