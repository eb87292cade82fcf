/**
 * One loopback TTS server per provider wire, each speaking it on its own (node:http, ws, the
 * event-stream framing of the reliability suite), with none of voxroute's mocks. Each answers
 * every synthesis request with the bytes `audio(text)` gives for the text asked, and records
 * the texts asked, in order.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebSocket } from 'ws';
import type { RouterConfig } from '../../../src/index.js';
import { payloadPart } from '../../reliability/wire/event-stream.js';
import { sendCartesiaContext } from './cartesia-context.js';
import { httpServer, readBody, sseFrames, writeInformational, wsServer } from './servers.js';

type ProviderConfig = RouterConfig['providers'][string];

/** A TTS server of one wire: the provider config that reaches it, and the texts asked so far. */
export interface TtsWire {
  provider: ProviderConfig;
  /** The text of each synthesis request, in arrival order. */
  requests: string[];
}

/** What a server answers for the text of one request: raw PCM s16le 24 kHz mono bytes. */
export type AudioFor = (text: string) => Buffer;

/** How a server of {@link TTS_KINDS} answers beside the audio. */
export interface ServeOptions {
  /**
   * Send a 102 Processing and a 103 Early Hints before each final response: before the 200 of
   * an HTTP wire, before the 101 of a WebSocket handshake.
   */
  informational?: boolean;
}

export interface TtsKind {
  name: string;
  serve(audio: AudioFor, options?: ServeOptions): Promise<TtsWire>;
}

const VOICES = { voices: { agent: 'v' } };

/** An HTTP server reading each request's JSON body, taking its text from `field`. */
async function jsonHttp(
  field: string,
  answer: (res: ServerResponse, bytes: Buffer, req: IncomingMessage) => void,
  audio: AudioFor,
  options: ServeOptions = {},
) {
  const requests: string[] = [];
  const wire = await httpServer(async (req, res) => {
    const body = JSON.parse((await readBody(req)).toString('utf8')) as Record<string, unknown>;
    const text = String(body[field]);
    requests.push(text);
    if (options.informational) writeInformational(res);
    answer(res, audio(text), req);
  });
  return { url: wire.url, requests };
}

function rawBody(contentType: string) {
  return (res: ServerResponse, bytes: Buffer) => {
    res.writeHead(200, { 'content-type': contentType, 'content-length': String(bytes.byteLength) });
    res.end(bytes);
  };
}

/** The wires every TTS adapter reads: raw PCM and SSE over HTTP, WebSocket, SageMaker's event stream. */
export const TTS_KINDS: readonly TtsKind[] = [
  {
    name: 'OpenAI-compatible /audio/speech, raw PCM body',
    async serve(audio, options) {
      const { url, requests } = await jsonHttp('input', rawBody('audio/pcm'), audio, options);
      return { provider: { kind: 'openai-compatible', baseUrl: `${url}/v1`, tts: VOICES }, requests };
    },
  },
  {
    name: 'OpenAI-compatible /audio/speech, SSE speech.audio.delta',
    async serve(audio, options) {
      const sse = (res: ServerResponse, bytes: Buffer) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(
          sseFrames([
            ...(bytes.byteLength > 0
              ? [{ type: 'speech.audio.delta', audio: bytes.toString('base64') }]
              : []),
            { type: 'speech.audio.done', usage: { input_tokens: 5, output_tokens: 9, total_tokens: 14 } },
          ]),
        );
      };
      const { url, requests } = await jsonHttp('input', sse, audio, options);
      return {
        provider: {
          kind: 'openai-compatible',
          baseUrl: `${url}/v1`,
          tts: { ...VOICES, streamFormat: 'sse' },
        },
        requests,
      };
    },
  },
  {
    name: 'Cartesia /tts/bytes',
    async serve(audio, options) {
      const { url, requests } = await jsonHttp(
        'transcript',
        rawBody('application/octet-stream'),
        audio,
        options,
      );
      return {
        provider: {
          kind: 'cartesia',
          baseUrl: url,
          apiKey: 'sk_car_stray',
          tts: { ...VOICES, transport: 'bytes' },
        },
        requests,
      };
    },
  },
  {
    name: 'Cartesia /tts/sse',
    async serve(audio, options) {
      const sse = (res: ServerResponse, bytes: Buffer) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(
          sseFrames([
            { type: 'chunk', data: bytes.toString('base64'), done: false, status_code: 206 },
            { type: 'done', done: true, status_code: 200 },
          ]),
        );
      };
      const { url, requests } = await jsonHttp('transcript', sse, audio, options);
      return {
        provider: {
          kind: 'cartesia',
          baseUrl: url,
          apiKey: 'sk_car_stray',
          tts: { ...VOICES, transport: 'sse' },
        },
        requests,
      };
    },
  },
  {
    name: 'Cartesia /tts/websocket',
    async serve(audio, options) {
      const requests: string[] = [];
      const wire = await wsServer((ws: WebSocket) => {
        ws.on('message', (raw) => {
          const m = JSON.parse(String(raw)) as { context_id: string; transcript?: string; cancel?: boolean };
          if (m.cancel || !m.transcript?.trim()) return;
          requests.push(m.transcript);
          const bytes = audio(m.transcript);
          const context_id = m.context_id;
          sendCartesiaContext(ws, context_id, bytes);
        });
      }, options);
      return {
        provider: {
          kind: 'cartesia',
          baseUrl: wire.url,
          apiKey: 'sk_car_stray',
          tts: { ...VOICES, transport: 'websocket' },
        },
        requests,
      };
    },
  },
  {
    name: 'ElevenLabs /v1/text-to-speech/{voice}/stream',
    async serve(audio, options) {
      const { url, requests } = await jsonHttp('text', rawBody('audio/pcm'), audio, options);
      return {
        provider: {
          kind: 'elevenlabs',
          baseUrl: url,
          apiKey: 'xi-stray',
          tts: { ...VOICES, transport: 'http' },
        },
        requests,
      };
    },
  },
  {
    name: 'ElevenLabs stream-input WebSocket',
    async serve(audio, options) {
      const requests: string[] = [];
      const wire = await wsServer((ws: WebSocket) => {
        // Text is buffered until a flush or the end of input (an empty text), then spoken at once.
        let text = '';
        const speak = () => {
          const asked = text.trim();
          text = '';
          if (asked === '') return;
          requests.push(asked);
          ws.send(JSON.stringify({ audio: audio(asked).toString('base64'), isFinal: false }));
        };
        ws.on('message', (raw) => {
          const m = JSON.parse(String(raw)) as { text?: string; flush?: boolean };
          if (m.text === undefined || m.text === ' ') return;
          if (m.text === '') {
            speak();
            ws.send(JSON.stringify({ isFinal: true }));
            ws.close(1000);
            return;
          }
          text += m.text;
          if (m.flush) speak();
        });
      }, options);
      return {
        provider: {
          kind: 'elevenlabs',
          baseUrl: wire.url,
          apiKey: 'xi-stray',
          tts: { ...VOICES, transport: 'websocket' },
        },
        requests,
      };
    },
  },
  {
    name: 'Deepgram /v1/speak',
    async serve(audio, options) {
      const { url, requests } = await jsonHttp('text', rawBody('audio/l16;rate=24000'), audio, options);
      return { provider: { kind: 'deepgram', baseUrl: url, apiKey: 'dg-stray', tts: VOICES }, requests };
    },
  },
  {
    name: 'SageMaker response stream (raw-pcm)',
    async serve(audio, options) {
      const stream = (res: ServerResponse, bytes: Buffer) => {
        res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
        res.end(bytes.byteLength > 0 ? payloadPart(bytes) : Buffer.alloc(0));
      };
      const { url, requests } = await jsonHttp('text', stream, audio, options);
      return {
        provider: {
          kind: 'sagemaker',
          region: 'us-east-1',
          endpointName: 'voice',
          endpointUrl: url,
          credentials: { accessKeyId: 'AKIDSTRAYBYTE', secretAccessKey: 'stray-byte-secret-key' },
          tts: { ...VOICES, payload: 'raw-pcm', sampleRate: 24_000, stream: 'response' },
        },
        requests,
      };
    },
  },
];
