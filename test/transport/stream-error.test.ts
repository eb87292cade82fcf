import { describe, expect, it } from 'vitest';
import type { ProviderError } from '../../src/errors/index.js';
import { errorFromStreamPayload, isStreamErrorPayload } from '../../src/transport/stream-error.js';

function fields(e: ProviderError) {
  return {
    message: e.message,
    providerType: e.providerType,
    providerCode: e.providerCode,
    retryable: e.retryable,
    partialOutput: e.partialOutput,
    status: e.status,
  };
}

describe('isStreamErrorPayload', () => {
  it('recognises event: error, an error key and type: error', () => {
    expect(isStreamErrorPayload({ anything: 1 }, 'error')).toBe(true);
    expect(isStreamErrorPayload({ error: { message: 'x' } })).toBe(true);
    expect(isStreamErrorPayload({ type: 'error', message: 'x' })).toBe(true);
  });

  it('ignores ordinary chunks and a null error key', () => {
    expect(isStreamErrorPayload({ choices: [] })).toBe(false);
    expect(isStreamErrorPayload({ error: null, choices: [] })).toBe(false);
    expect(isStreamErrorPayload('[1]', 'message')).toBe(false);
  });
});

describe('errorFromStreamPayload', () => {
  it('C06: reads the OpenAI-compatible shape with type and code', () => {
    const json = { error: { type: 'overloaded_error', code: 'overloaded', message: 'busy' } };
    expect(fields(errorFromStreamPayload('p', json, 'error', true))).toEqual({
      message: "Provider 'p' sent an error event mid-stream (overloaded_error/overloaded): busy",
      providerType: 'overloaded_error',
      providerCode: 'overloaded',
      retryable: true,
      partialOutput: true,
      status: undefined,
    });
  });

  it("reads Anthropic's error event", () => {
    const json = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
    expect(fields(errorFromStreamPayload('claude', json, 'error', false))).toEqual({
      message: "Provider 'claude' sent an error event mid-stream (overloaded_error): Overloaded",
      providerType: 'overloaded_error',
      providerCode: undefined,
      retryable: true,
      partialOutput: false,
      status: undefined,
    });
  });

  it("reads vLLM's integer code: 400 is not retryable, 500 is", () => {
    const bad = { error: { message: 'bad', type: 'BadRequestError', param: null, code: 400 } };
    expect(errorFromStreamPayload('v', bad, undefined, true).retryable).toBe(false);
    const oops = { error: { message: 'oops', type: 'InternalServerError', param: null, code: 500 } };
    const e = errorFromStreamPayload('v', oops, undefined, true);
    expect([e.retryable, e.providerCode, e.message]).toEqual([
      true,
      500,
      "Provider 'v' sent an error mid-stream (InternalServerError/500): oops",
    ]);
  });

  it('does not retry invalid_request and authentication errors', () => {
    const invalid = { type: 'error', error: { type: 'invalid_request_error', message: 'no' } };
    expect(errorFromStreamPayload('a', invalid, 'error', false).retryable).toBe(false);
    const auth = { error: { type: 'authentication_error', message: 'no' } };
    expect(errorFromStreamPayload('a', auth, undefined, false).retryable).toBe(false);
  });

  it("reads Cartesia's flat error event, its status_code deciding retryability", () => {
    const json = {
      type: 'error',
      done: true,
      status_code: 429,
      error_code: 'concurrency_limited',
      message: 'slow',
    };
    const e = errorFromStreamPayload('cartesia', json, undefined, true);
    expect([e.providerCode, e.retryable, e.message]).toEqual([
      'concurrency_limited',
      true,
      "Provider 'cartesia' sent an error mid-stream (concurrency_limited): slow",
    ]);
  });

  it('reads {"error": "text"} and a raw string payload', () => {
    expect(errorFromStreamPayload('p', { error: 'gone' }, undefined, false).message).toBe(
      "Provider 'p' sent an error mid-stream: gone",
    );
    expect(errorFromStreamPayload('p', 'raw\n text', 'error', false).message).toBe(
      "Provider 'p' sent an error event mid-stream: raw text",
    );
  });
});
