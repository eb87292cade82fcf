/**
 * A speech provider refusing a request because it does not know the model or voice it was sent:
 * the id comes from the router config's mapping for that provider, so the call falls back to the
 * next provider and the failure is charged to the first as an ordinary one
 * (`ProviderError.unknownModel`; breaker closed, not misconfigured), as for OpenAI-compatible and
 * ElevenLabs HTTP. Covered here, each in its documented error shape:
 * - Cartesia HTTP (`{"error_code","title","message"}` with 400) and Cartesia's WebSocket error
 *   event (`{"type":"error","status_code":400,"error_code","title","message"}`);
 * - Deepgram `POST /v1/speak` (400 `{"err_code":"Bad Request","err_msg":"Bad Request: No such
 *   model/language/tier combination found."}`) and a listen upgrade refused with HTTP 400 whose
 *   `dg-error` header says the same;
 * - ElevenLabs stream-input (`{"message","error":"voice_not_found","code"}` then a close).
 * A 400 that names no unknown model still ends the call at once and charges no provider.
 * Servers speak the wire on their own (node:http and ws on loopback).
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { ProviderError, type RouterConfig } from '../../src/index.js';
import {
  type Capability,
  call,
  expectChargedToA,
  health,
  routerOverBackup,
  servedByBackup,
} from './wire/backup.js';
import { httpServer, readBody, wsServer } from './wire/servers.js';

/** A fake key, put together at run time. */
const KEY = ['case', 'unknown', 'model'].join('-');
/** Deepgram's documented answer to an unknown model (API errors, "400 Unknown Model"). */
const DEEPGRAM_NO_SUCH_MODEL = 'Bad Request: No such model/language/tier combination found.';

type ProviderConfig = RouterConfig['providers'][string];

const upgradeClosers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of upgradeClosers.splice(0)) await close();
});

/** A router over `a` then the backup `b` (priority) for `capability`, recording breaker events. */
const twoProviders = (a: ProviderConfig, capability: Capability) =>
  routerOverBackup(a, [capability], { firstChunkTimeoutMs: false });

/** An HTTP server answering every request with `status` and the JSON `body`; records each body. */
async function refusing(status: number, body: unknown) {
  const bodies: string[] = [];
  const wire = await httpServer(async (req, res) => {
    bodies.push(`${req.url} ${(await readBody(req)).toString()}`);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  return { wire, bodies };
}

/** A server refusing every WebSocket upgrade with HTTP 400, `dg-error: <said>` and the same JSON body. */
async function refusingUpgrade(said: string) {
  const requests: string[] = [];
  const sockets: Socket[] = [];
  const server = createServer((_req, res) => res.writeHead(404).end());
  server.on('connection', (s) => sockets.push(s));
  server.on('upgrade', (req, socket) => {
    requests.push(req.url ?? '');
    const body = JSON.stringify({ err_code: 'Bad Request', err_msg: said, request_id: 'req-1' });
    socket.end(
      `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ndg-error: ${said}\r\ndg-request-id: req-1\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  upgradeClosers.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

const cartesiaTts = (url: string, transport: 'bytes' | 'websocket'): ProviderConfig => ({
  kind: 'cartesia',
  baseUrl: url,
  apiKey: KEY,
  tts: { model: 'sonic-typo', voices: { agent: 'car-voice-typo' }, transport },
});

describe('an unknown model or voice falls back and is charged to that provider (speech providers)', () => {
  it('Cartesia /tts/bytes, 400 {"error_code":"voice_not_found",...}: served by the backup, unknownModel', async () => {
    const a = await refusing(400, {
      error_code: 'voice_not_found',
      title: 'Voice not found',
      message: 'No voice with the id you sent.',
      request_id: '550e8400-e29b-41d4-a716-446655440000',
    });
    const { r, breakers } = await twoProviders(cartesiaTts(a.wire.url, 'bytes'), 'tts');
    const error = await servedByBackup(r, 'tts');
    expect([
      error.status,
      error.providerCode,
      error.unknownModel,
      error.retryable,
      error.isAuthError,
    ]).toEqual([400, 'voice_not_found', true, false, false]);
    expect(a.wire.hits).toBe(1);
    expectChargedToA(r, breakers, 'tts');
  });

  it('Cartesia /tts/bytes, 400 with error_code null and a title saying the model was not found: unknownModel', async () => {
    const a = await refusing(400, {
      error_code: null,
      title: 'Model not found',
      message: "The model 'sonic-typo' is not available.",
      request_id: '550e8400-e29b-41d4-a716-446655440001',
    });
    const { r, breakers } = await twoProviders(cartesiaTts(a.wire.url, 'bytes'), 'tts');
    const error = await servedByBackup(r, 'tts');
    expect([error.status, error.providerCode, error.unknownModel]).toEqual([400, undefined, true]);
    expectChargedToA(r, breakers, 'tts');
  });

  it('Cartesia /tts/websocket error event {"status_code":400,"title":"Voice not found"}: served by the backup, unknownModel', async () => {
    const requests: Array<Record<string, unknown>> = [];
    const a = await wsServer((ws: WebSocket) => {
      ws.on('message', (raw) => {
        const message = JSON.parse(String(raw)) as Record<string, unknown>;
        if (message.cancel) return;
        requests.push(message);
        ws.send(
          JSON.stringify({
            type: 'error',
            context_id: message.context_id,
            done: true,
            status_code: 400,
            error_code: null,
            title: 'Voice not found',
            message: 'No voice with the id you sent.',
            request_id: 'req-ws-1',
          }),
        );
      });
    });
    const { r, breakers } = await twoProviders(cartesiaTts(a.url, 'websocket'), 'tts');
    const error = await servedByBackup(r, 'tts');
    expect([error.providerCode, error.unknownModel, error.retryable, error.isAuthError]).toEqual([
      400,
      true,
      false,
      false,
    ]);
    expect((requests[0]!.voice as { id: string }).id).toBe('car-voice-typo');
    expectChargedToA(r, breakers, 'tts');
  });

  it('Deepgram /v1/speak, 400 "No such model/language/tier combination found.": served by the backup, unknownModel', async () => {
    const a = await refusing(400, {
      err_code: 'Bad Request',
      err_msg: DEEPGRAM_NO_SUCH_MODEL,
      request_id: 'req-speak-1',
    });
    const { r, breakers } = await twoProviders(
      { kind: 'deepgram', baseUrl: a.wire.url, apiKey: KEY, tts: { voices: { agent: 'aura-9-typo-en' } } },
      'tts',
    );
    const error = await servedByBackup(r, 'tts');
    expect([error.status, error.providerCode, error.unknownModel, error.retryable]).toEqual([
      400,
      'Bad Request',
      true,
      false,
    ]);
    expect(a.bodies[0]).toContain('model=aura-9-typo-en');
    expectChargedToA(r, breakers, 'tts');
  });

  it('Deepgram listen, upgrade refused with 400 and dg-error "No such model...": served by the backup, unknownModel', async () => {
    const a = await refusingUpgrade(DEEPGRAM_NO_SUCH_MODEL);
    const { r, breakers } = await twoProviders(
      { kind: 'deepgram', baseUrl: a.url, apiKey: KEY, stt: { model: 'nova-typo' } },
      'stt',
    );
    const error = await servedByBackup(r, 'stt');
    expect([error.status, error.unknownModel, error.retryable]).toEqual([400, true, false]);
    expect(error.message).toContain(DEEPGRAM_NO_SUCH_MODEL);
    expect(a.requests).toHaveLength(1);
    expect(a.requests[0]).toContain('model=nova-typo');
    expectChargedToA(r, breakers, 'stt');
  });

  it('Deepgram listen, upgrade refused with 400 for another reason: the call ends at once, no provider charged', async () => {
    const said = 'Keywords are not supported for Nova-3. Please use `keyterm` instead.';
    const a = await refusingUpgrade(said);
    const { r, breakers } = await twoProviders(
      { kind: 'deepgram', baseUrl: a.url, apiKey: KEY, stt: { model: 'nova-3' } },
      'stt',
    );
    const { error } = await call(r, 'stt');
    expect(error).toBeInstanceOf(ProviderError);
    const e = error as ProviderError;
    expect([e.status, e.unknownModel, e.provider]).toEqual([400, false, 'a']);
    expect(e.message).toContain(said);
    expect(breakers).toEqual([]);
    expect(health(r, 'a', 'stt').errors ?? 0).toBe(0);
  });

  it('ElevenLabs stream-input {"error":"voice_not_found"} then close 1008: served by the backup, unknownModel', async () => {
    const a = await wsServer((ws: WebSocket) => {
      ws.once('message', () => {
        ws.send(
          JSON.stringify({
            message: 'A voice with the voice_id you sent was not found.',
            error: 'voice_not_found',
            code: 1008,
          }),
        );
        ws.close(1008, 'voice_not_found');
      });
    });
    const { r, breakers } = await twoProviders(
      {
        kind: 'elevenlabs',
        baseUrl: a.url,
        apiKey: KEY,
        tts: { voices: { agent: 'el-voice-typo' }, transport: 'websocket' },
      },
      'tts',
    );
    const error = await servedByBackup(r, 'tts');
    expect([error.status, error.providerCode, error.unknownModel, error.isAuthError]).toEqual([
      1008,
      'voice_not_found',
      true,
      false,
    ]);
    expectChargedToA(r, breakers, 'tts');
  });
});
