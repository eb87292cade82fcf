/**
 * A provider explains its failure with a huge message: megabytes of text in an in-band error (an
 * SSE error payload, a Cartesia WebSocket `error` event, a SageMaker `ModelStreamError`) or in a
 * SageMaker HTTP error body (read by the AWS SDK, bounded only in time). The call still falls back
 * to the next provider, and the error it records carries a message of bounded length. Before, the
 * whole text became the error's message: redacting it took seconds, and past about 10 million
 * characters the redaction's regular expressions overflowed the stack, so the call failed with a
 * raw RangeError and no fallback. Servers speak the wire on their own (node:http and ws on
 * loopback).
 */
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { streamException } from '../reliability/wire/event-stream.js';
import { routerOverBackup, servedByBackup } from './wire/backup.js';
import { EXAMPLE_CREDENTIALS, sageMakerTts } from './wire/sagemaker-response.js';
import { httpServer, readBody, wsServer } from './wire/servers.js';

/** `n` characters of provider text (no white space, letters only: one long run for the redactor). */
const huge = (n: number) => 'Ee'.repeat(n / 2);

/** The longest message an error may carry: the provider's text is cut well before this. */
const MAX_MESSAGE = 1_000;

/** A server answering every request (its body read) with `status`, `headers` and `body`. */
const answering = (status: number, headers: Record<string, string>, body: string | Buffer) =>
  httpServer(async (req, res) => {
    await readBody(req);
    res.writeHead(status, headers);
    res.end(body);
  });

describe('a huge error message from a provider: fallback, and a bounded message', () => {
  it('OpenAI-compatible chat: an in-band SSE error of 7 million characters', async () => {
    const a = await answering(
      200,
      { 'content-type': 'text/event-stream' },
      `data: ${JSON.stringify({ error: { message: huge(7_000_000), type: 'server_error' } })}\n\n`,
    );
    const { r } = await routerOverBackup(
      { kind: 'openai-compatible', baseUrl: a.url, chat: { models: { fast: 'm' } } },
      ['chat'],
      { firstChunkTimeoutMs: false },
    );
    const error = await servedByBackup(r, 'chat');
    expect(error.message.length).toBeLessThan(MAX_MESSAGE);
    // One run of 7 million letters: cut whole, not split (a split token may be a key's start).
    expect(error.message).toBe("Provider 'a' sent an error mid-stream (server_error): …");
  });

  it('a key echoed across the cut leaves no start of it in the message', async () => {
    const key = `sk-proj-${'A1b2C3d4'.repeat(6)}`;
    const message = `${'word '.repeat(99)}${key} and more`; // the key starts 4 characters before the cut
    const a = await answering(
      200,
      { 'content-type': 'text/event-stream' },
      `data: ${JSON.stringify({ error: { message, type: 'server_error' } })}\n\n`,
    );
    const { r } = await routerOverBackup(
      { kind: 'openai-compatible', baseUrl: a.url, apiKey: key, chat: { models: { fast: 'm' } } },
      ['chat'],
      { firstChunkTimeoutMs: false },
    );
    const error = await servedByBackup(r, 'chat');
    expect(error.message).toBe(
      `Provider 'a' sent an error mid-stream (server_error): ${'word '.repeat(98)}word …`,
    );
    expect(error.message).not.toContain('sk-');
  });

  it('Cartesia WebSocket TTS: an error event of 12 million characters', async () => {
    const a = await wsServer((ws: WebSocket) =>
      ws.on('message', (raw) => {
        const m = JSON.parse(String(raw)) as { context_id: string; transcript?: string };
        if (!m.transcript?.trim()) return;
        const message = huge(12_000_000);
        ws.send(
          JSON.stringify({ type: 'error', context_id: m.context_id, done: true, status_code: 500, message }),
        );
      }),
    );
    const { r } = await routerOverBackup(
      {
        kind: 'cartesia',
        baseUrl: a.url,
        apiKey: 'sk_car_case_huge_0123',
        tts: { voices: { agent: 'v' }, transport: 'websocket' },
      },
      ['tts'],
      { firstChunkTimeoutMs: false },
    );
    const error = await servedByBackup(r, 'tts');
    expect(error.message.length).toBeLessThan(MAX_MESSAGE);
    expect([error.status, error.retryable]).toEqual([undefined, true]);
  });

  it('SageMaker response stream: a ModelStreamError of 12 million characters before any PayloadPart', async () => {
    const a = await answering(
      200,
      { 'content-type': 'application/vnd.amazon.eventstream' },
      streamException('ModelStreamError', huge(12_000_000)),
    );
    const { r } = await routerOverBackup(sageMakerTts(a.url, 'response'), ['tts'], {
      firstChunkTimeoutMs: false,
    });
    const error = await servedByBackup(r, 'tts');
    expect(error.message.length).toBeLessThan(MAX_MESSAGE);
    expect([error.providerType, error.providerCode]).toEqual(['ModelStreamError', 'StreamBroken']);
  });

  it('SageMaker HTTP 503 with a 20 MB JSON error body', async () => {
    const a = await answering(
      503,
      { 'content-type': 'application/json', 'x-amzn-errortype': 'ServiceUnavailable' },
      JSON.stringify({ message: huge(20_000_000) }),
    );
    const { r } = await routerOverBackup(
      { ...sageMakerTts(a.url, 'response'), credentials: EXAMPLE_CREDENTIALS },
      ['tts'],
      { firstChunkTimeoutMs: false },
    );
    const error = await servedByBackup(r, 'tts');
    expect(error.message.length).toBeLessThan(MAX_MESSAGE);
    expect([error.status, error.providerCode, error.retryable]).toEqual([503, 'ServiceUnavailable', true]);
  });
});
