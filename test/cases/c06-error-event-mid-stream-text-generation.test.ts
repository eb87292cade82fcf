/**
 * C06 (an error event in the middle of a 200 stream), the text-generation sibling: TGI and LMI
 * containers on SageMaker report a failure inside the stream as `{"error":"<text>","error_type":
 * "<kind>"}` (TGI's ErrorResponse; as an SSE `data:` line, or a JSON line for LMI). The error's
 * machine-readable kind is kept (`providerType`) and classed as for any in-band error:
 * `overloaded` and `generation` are retryable, `validation` (the request itself is bad) is not;
 * before any text, either moves the call on to the next provider (no HTTP status said the request
 * was bad). The endpoint is a loopback server writing the SageMaker event
 * stream on its own (node:http and the reliability suite's event-stream framing).
 */
import { describe, expect, it } from 'vitest';
import { type ChatEvent, MidStreamError, ProviderError, type RouterConfig } from '../../src/index.js';
import { payloadPart } from '../reliability/wire/event-stream.js';
import { answerChat, drain, httpServer, readBody, router } from './wire/servers.js';

const sse = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
const line = (value: unknown) => `${JSON.stringify(value)}\n`;
/** A TGI / LMI token message. */
const token = (text: string, special = false) => ({
  token: { id: 1, text, logprob: 0, special },
  generated_text: null,
  details: null,
});

/** The two framings of the text-generation codecs: TGI's SSE, LMI's JSON lines. */
const CODECS = [
  { payload: 'tgi', frame: sse },
  { payload: 'jsonlines', frame: line },
] as const;

/** A SageMaker endpoint (response stream) at `url` serving chat with `payload`. */
const endpoint = (url: string, payload: string) =>
  ({
    kind: 'sagemaker',
    region: 'us-east-1',
    endpointName: 'llm',
    endpointUrl: url,
    credentials: {
      accessKeyId: 'AKIDC06EXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI7K7MDENGbPxRfiCYEXAMPLEKEY',
    },
    chat: { payload, models: { fast: 'default' } },
  }) as RouterConfig['providers'][string];

/** An endpoint answering every call with one PayloadPart per message of `messages`. */
async function streaming(messages: readonly string[]) {
  return httpServer(async (req, res) => {
    await readBody(req);
    res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
    for (const message of messages) res.write(payloadPart(Buffer.from(message)));
    res.end();
  });
}

async function chat(config: RouterConfig) {
  const r = router(config);
  const stream = r.chat({ messages: [{ role: 'user', content: 'Book a table.' }], model: 'fast' });
  const { items, error } = await drain(stream);
  return {
    items: items as ChatEvent[],
    error,
    result: error === undefined ? await stream.result : undefined,
  };
}

describe('C06: a text-generation error message mid-stream keeps its error_type', () => {
  for (const { payload, frame } of CODECS) {
    for (const [kind, message] of [
      ['overloaded', 'Model is overloaded'],
      ['generation', 'Request failed during generation: Server error: Out of available cache blocks'],
    ] as const)
      it(`C06: ${payload}: "Par", then {"error", "error_type":"${kind}"}: MidStreamError holding "Par", its cause a retryable ProviderError of type ${kind}`, async () => {
        const a = await streaming([frame(token('Par')), frame({ error: message, error_type: kind })]);
        const { items, error } = await chat({
          providers: { a: endpoint(a.url, payload) },
          routes: { chat: { providers: ['a'] } },
        });
        expect(items).toEqual([{ type: 'text-delta', text: 'Par' }]);
        expect(error).toBeInstanceOf(MidStreamError);
        const mid = error as MidStreamError;
        expect([mid.partialOutput, mid.partialText, mid.retryable]).toEqual([true, 'Par', true]);
        const cause = mid.cause as ProviderError;
        expect(cause).toBeInstanceOf(ProviderError);
        expect([cause.providerType, cause.retryable, cause.partialOutput]).toEqual([kind, true, true]);
        expect(cause.message).toBe(`Provider 'a' sent an error mid-stream (${kind}): ${message}`);
      });

    it(`C06: ${payload}: {"error", "error_type":"validation"} before any text: b answers; a's failure is a non-retryable ProviderError of type validation`, async () => {
      const message = 'Input validation error: `inputs` tokens + `max_new_tokens` must be <= 2048';
      const a = await streaming([
        frame(token('<s>', true)),
        frame({ error: message, error_type: 'validation' }),
      ]);
      const b = await httpServer(async (req, res) => {
        await readBody(req);
        answerChat(res, 'Table booked.');
      });
      const { items, error, result } = await chat({
        providers: {
          a: endpoint(a.url, payload),
          b: { kind: 'openai-compatible', baseUrl: b.url, chat: { models: { fast: 'm' } } },
        },
        routes: { chat: { providers: ['a', 'b'], strategy: 'priority' } },
      });
      expect(error).toBeUndefined();
      expect(items).toEqual([
        { type: 'text-delta', text: 'Table booked.' },
        { type: 'finish', finishReason: 'stop' },
      ]);
      expect(result!.attempts.map((x) => [x.provider, x.outcome])).toEqual([
        ['a', 'failed'],
        ['b', 'success'],
      ]);
      const failure = result!.attempts[0]!.error as ProviderError;
      expect(failure).toBeInstanceOf(ProviderError);
      expect([failure.providerType, failure.retryable, failure.partialOutput]).toEqual([
        'validation',
        false,
        false,
      ]);
      expect(failure.message).toBe(`Provider 'a' sent an error mid-stream (validation): ${message}`);
    });
  }
});
