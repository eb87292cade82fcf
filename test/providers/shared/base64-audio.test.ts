/**
 * Base64 audio that is not standard padded base64 is a ProtocolError and a fallback, for every
 * provider whose audio arrives base64 in JSON. The servers speak each wire on their own
 * (node:http and ws), not voxroute's mocks.
 */
import { describe, expect, it } from 'vitest';
import { ProtocolError, type RouterConfig } from '../../../src/index.js';
import { cartesiaTtsCodec } from '../../../src/providers/sagemaker/codecs/cartesia-tts.js';
import { decodeBase64Audio } from '../../../src/providers/shared/base64-audio.js';
import {
  answerPcm,
  drain,
  httpServer,
  readBody,
  router,
  sseFrames,
  wsServer,
} from '../../cases/wire/servers.js';
import { chunksOf } from '../../helpers/streams.js';

const BAD = ['!!!notbase64***', 'AAAA-_-_', 'aGVsbG8', 'AAA', 'A===', 'AA=A', 'AAAA AAA', 'AAAA\nAAA'];
const B_AUDIO = Buffer.alloc(4800, 5);

describe('decodeBase64Audio', () => {
  it('decodes standard padded base64 and the empty string', () => {
    expect(Buffer.from(decodeBase64Audio('aGVsbG8=', 'p', false)).toString()).toBe('hello');
    expect(Buffer.from(decodeBase64Audio('+/+/', 'p', false))).toEqual(Buffer.from([0xfb, 0xff, 0xbf]));
    expect(decodeBase64Audio('', 'p', false).byteLength).toBe(0);
  });

  it.each(BAD)('refuses %j with a retryable ProtocolError naming only the length', (text) => {
    let error: unknown;
    try {
      decodeBase64Audio(text, 'p', true);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ProtocolError);
    const e = error as ProtocolError;
    expect(e.message).toBe(`Audio chunk is not base64 (${text.length} characters)`);
    expect([e.provider, e.retryable, e.partialOutput]).toEqual(['p', true, true]);
  });
});

/** A backup OpenAI-compatible speech server answering raw PCM. */
async function backup() {
  return httpServer(async (req, res) => {
    await readBody(req);
    answerPcm(res, B_AUDIO);
  });
}

function ttsConfig(a: RouterConfig['providers'][string], bUrl: string): RouterConfig {
  return {
    providers: {
      A: a,
      B: {
        kind: 'openai-compatible',
        baseUrl: `${bUrl}/v1`,
        apiKey: 'k',
        tts: { model: 't', voices: { agent: 'v' } },
      },
    },
    routes: { tts: { providers: ['A', 'B'], strategy: 'priority' } },
  };
}

async function fallbackOf(config: RouterConfig) {
  const r = router(config);
  const fallbacks: unknown[] = [];
  r.on('fallback', (ev) => fallbacks.push(ev.error));
  const { items, error } = await drain(r.tts({ text: 'Hello there.', voice: 'agent' }));
  return { items, error, fallbacks };
}

describe('bad base64 audio falls back to the next provider', () => {
  it('ElevenLabs stream-input: {"audio":"!!!notbase64***"} then isFinal', async () => {
    const a = await wsServer((ws) => {
      ws.on('message', (data) => {
        if (JSON.parse(String(data)).text !== '') return;
        ws.send(JSON.stringify({ audio: '!!!notbase64***', isFinal: null }));
        ws.send('{"isFinal":true}');
      });
    });
    const b = await backup();
    const { items, error, fallbacks } = await fallbackOf(
      ttsConfig(
        {
          kind: 'elevenlabs',
          baseUrl: a.url,
          apiKey: 'key',
          tts: { model: 'eleven_flash_v2_5', voices: { agent: 'v' }, transport: 'websocket' },
        },
        b.url,
      ),
    );
    expect(error).toBeUndefined();
    expect(Buffer.concat(items.map((c) => c.data))).toEqual(B_AUDIO);
    expect(fallbacks).toHaveLength(1);
    expect(fallbacks[0]).toBeInstanceOf(ProtocolError);
    expect((fallbacks[0] as ProtocolError).message).toBe('Audio chunk is not base64 (15 characters)');
  });

  it('OpenAI speech SSE: a speech.audio.delta that is not base64', async () => {
    const a = await httpServer(async (req, res) => {
      await readBody(req);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(sseFrames([{ type: 'speech.audio.delta', audio: 'AAAA-_-_' }, { type: 'speech.audio.done' }]));
    });
    const b = await backup();
    const { items, error, fallbacks } = await fallbackOf(
      ttsConfig(
        {
          kind: 'openai-compatible',
          baseUrl: `${a.url}/v1`,
          apiKey: 'k',
          tts: { model: 't', voices: { agent: 'v' }, streamFormat: 'sse' },
        },
        b.url,
      ),
    );
    expect(error).toBeUndefined();
    expect(Buffer.concat(items.map((c) => c.data))).toEqual(B_AUDIO);
    expect(fallbacks.map((e) => [(e as Error).constructor.name, (e as Error).message])).toEqual([
      ['ProtocolError', 'Audio chunk is not base64 (8 characters)'],
    ]);
  });

  it('Cartesia WebSocket: a chunk whose data is url-safe base64', async () => {
    const a = await wsServer((ws) => {
      ws.on('message', (data) => {
        const m = JSON.parse(String(data));
        if (m.transcript)
          ws.send(JSON.stringify({ type: 'chunk', context_id: m.context_id, data: 'AAAA-_-_' }));
      });
    });
    const b = await backup();
    const { items, error, fallbacks } = await fallbackOf(
      ttsConfig(
        {
          kind: 'cartesia',
          baseUrl: a.url,
          apiKey: 'k',
          tts: { model: 'sonic-2', voices: { agent: 'v' }, transport: 'websocket' },
        },
        b.url,
      ),
    );
    expect(error).toBeUndefined();
    expect(Buffer.concat(items.map((c) => c.data))).toEqual(B_AUDIO);
    expect(fallbacks.map((e) => [(e as Error).constructor.name, (e as Error).message])).toEqual([
      ['ProtocolError', 'Audio chunk is not base64 (8 characters)'],
    ]);
  });
});

describe("SageMaker 'cartesia' codec", () => {
  it('a chunk after good audio that is not base64 is a ProtocolError with partialOutput', async () => {
    const format = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 } as const;
    const body = sseFrames([
      { type: 'chunk', data: Buffer.alloc(6, 1).toString('base64') },
      { type: 'chunk', data: 'AAAAA===' },
      { type: 'done' },
    ]);
    const request = { text: 'x', voice: 'v', format } as never;
    const { items, error } = await drain(
      cartesiaTtsCodec.decode(chunksOf([body]), { provider: 'sm', request } as never),
    );
    expect(items.map((c) => Buffer.from(c.data))).toEqual([Buffer.alloc(6, 1)]);
    expect(error).toBeInstanceOf(ProtocolError);
    expect([(error as ProtocolError).message, (error as ProtocolError).partialOutput]).toEqual([
      'Audio chunk is not base64 (8 characters)',
      true,
    ]);
  });
});
