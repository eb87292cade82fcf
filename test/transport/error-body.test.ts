import { describe, expect, it } from 'vitest';
import { parseErrorBody } from '../../src/transport/error-body.js';

describe('parseErrorBody', () => {
  it('reads the OpenAI shape', () => {
    const body = JSON.stringify({
      error: { message: 'Rate limit reached', type: 'requests', param: null, code: 'rate_limit_exceeded' },
    });
    expect(parseErrorBody(body, 'application/json')).toEqual({
      message: 'Rate limit reached',
      providerType: 'requests',
      providerCode: 'rate_limit_exceeded',
    });
  });

  it("reads vLLM's integer code and the param", () => {
    const body = JSON.stringify({
      error: { message: 'max_tokens too large', type: 'BadRequestError', param: 'max_tokens', code: 400 },
    });
    expect(parseErrorBody(body, 'application/json')).toEqual({
      message: 'max_tokens too large',
      providerType: 'BadRequestError',
      providerCode: 400,
      param: 'max_tokens',
    });
  });

  it("reads TGI's flat error with its error_type (an HTTP error body, as in its stream)", () => {
    const body =
      '{"error":"Input validation error: `inputs` must have less than 2048 tokens","error_type":"validation"}';
    expect(parseErrorBody(body, 'application/json')).toEqual({
      message: 'Input validation error: `inputs` must have less than 2048 tokens',
      providerType: 'validation',
    });
  });

  it('reads the Anthropic shape', () => {
    const body = '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}';
    expect(parseErrorBody(body, 'application/json')).toEqual({
      message: 'Overloaded',
      providerType: 'overloaded_error',
    });
  });

  it('reads FastAPI {"detail": "..."} (speaches)', () => {
    expect(parseErrorBody('{"detail":"Speed must be between 0.25 and 4"}', 'application/json')).toEqual({
      message: 'Speed must be between 0.25 and 4',
    });
  });

  it('reads FastAPI {"detail": {error, message, type}} (Kokoro)', () => {
    const body =
      '{"detail":{"error":"invalid_model","message":"Unsupported model: x","type":"invalid_request_error"}}';
    expect(parseErrorBody(body, 'application/json')).toEqual({
      message: 'Unsupported model: x',
      providerType: 'invalid_request_error',
      providerCode: 'invalid_model',
    });
  });

  it('reads FastAPI validation errors and ElevenLabs detail.status', () => {
    const validation = '{"detail":[{"loc":["body","speed"],"msg":"too fast","type":"value_error"}]}';
    expect(parseErrorBody(validation, 'application/json')).toEqual({
      message: 'body.speed: too fast',
      providerType: 'value_error',
    });
    const quota = '{"detail":{"status":"quota_exceeded","message":"No credits"}}';
    expect(parseErrorBody(quota, 'application/json')).toEqual({
      message: 'No credits',
      providerCode: 'quota_exceeded',
    });
  });

  it('reads Cartesia and Deepgram flat bodies', () => {
    const cartesia =
      '{"error_code":"concurrency_limited","title":"Too many","message":"Slow down","request_id":"r"}';
    expect(parseErrorBody(cartesia, 'application/json')).toEqual({
      message: 'Too many: Slow down',
      providerCode: 'concurrency_limited',
    });
    const deepgram = '{"err_code":"BAD_REQUEST","err_msg":"Invalid audio format","request_id":"r"}';
    expect(parseErrorBody(deepgram, 'application/json')).toEqual({
      message: 'Invalid audio format',
      providerCode: 'BAD_REQUEST',
    });
  });

  it('falls back to a short excerpt of plain text, whitespace collapsed', () => {
    expect(parseErrorBody('  upstream\n\n  connect error  ', 'text/plain')).toEqual({
      message: 'upstream connect error',
    });
    const long = parseErrorBody('x'.repeat(1000), 'text/html');
    expect(long.message).toBe(`${'x'.repeat(199)}…`);
  });

  it('falls back to an excerpt for JSON it does not know and for broken JSON', () => {
    expect(parseErrorBody('{"foo":1}', 'application/json')).toEqual({ message: '{"foo":1}' });
    expect(parseErrorBody('{"error":', 'application/json')).toEqual({ message: '{"error":' });
    expect(parseErrorBody('', undefined)).toEqual({ message: '(empty body)' });
  });
});
