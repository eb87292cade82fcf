import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortError, ProtocolError, ProviderError, TimeoutError } from '../../../src/errors/index.js';
import {
  createSageMakerAdapter,
  type SageMakerStreamClient,
  type SageMakerStreamEvent,
} from '../../../src/providers/sagemaker/index.js';
import {
  createManualDelay,
  type SageMakerEmulator,
  sageMakerChatEndpoint,
  startSageMakerEmulator,
} from '../../../src/testing/index.js';
import { attemptOf, collect, collectUntilError, credentials, encoder } from './helpers.js';

const messages = [{ role: 'user' as const, content: 'Hi' }];

/** A stream client that yields the given union members (the SDK's other form of stream errors). */
function unionClient(events: SageMakerStreamEvent[]): SageMakerStreamClient & { inputs: unknown[] } {
  const inputs: unknown[] = [];
  return {
    inputs,
    async invoke(input) {
      inputs.push(input);
      return {
        Body: (async function* () {
          yield* events;
        })(),
      };
    },
  };
}

function unionAdapter(client: SageMakerStreamClient) {
  return createSageMakerAdapter({
    name: 'sm',
    region: 'eu-west-1',
    endpointName: 'llm',
    streamClient: client,
    chat: { payload: 'jsonlines' },
  });
}

describe('C21 with stream errors as union members', () => {
  it('C21: a ModelStreamError member after output is a retryable ProviderError with partialOutput: true', async () => {
    const client = unionClient([
      { PayloadPart: { Bytes: encoder.encode('{"outputs":["Hel"]}\n') } },
      { ModelStreamError: { Message: 'model took too long', ErrorCode: 'ModelInvocationTimeExceeded' } },
    ]);
    const { items, error } = await collectUntilError(
      unionAdapter(client).chat!.chat({ model: 'default', messages }, attemptOf()),
    );
    expect(items).toEqual([{ type: 'text-delta', text: 'Hel' }]);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      providerType: 'ModelStreamError',
      providerCode: 'ModelInvocationTimeExceeded',
      retryable: true,
      partialOutput: true,
    });
  });

  it('C21: an InternalStreamFailure member before any PayloadPart is retryable without partialOutput', async () => {
    const client = unionClient([{ InternalStreamFailure: { Message: 'oops' } }]);
    const { items, error } = await collectUntilError(
      unionAdapter(client).chat!.chat({ model: 'default', messages }, attemptOf()),
    );
    expect(items).toEqual([]);
    expect(error).toMatchObject({
      code: 'PROVIDER_ERROR',
      providerType: 'InternalStreamFailure',
      retryable: true,
      partialOutput: false,
    });
  });

  it('skips unknown members and passes the configured headers to the client', async () => {
    const client = unionClient([
      { $unknown: ['SomethingNew', {}] },
      { PayloadPart: { Bytes: encoder.encode('{"outputs":["ok"]}') } },
    ]);
    const adapter = createSageMakerAdapter({
      name: 'sm',
      region: 'eu-west-1',
      endpointName: 'llm',
      targetVariant: 'v2',
      inferenceComponent: 'ic-llama',
      sessionId: 'sess-42',
      customAttributes: 'trace=1',
      streamClient: client,
      chat: { payload: 'jsonlines' },
    });
    const events = await collect(adapter.chat!.chat({ model: 'default', messages }, attemptOf()));
    expect(events).toEqual([
      { type: 'text-delta', text: 'ok' },
      { type: 'finish', finishReason: 'other' },
    ]);
    expect(client.inputs[0]).toMatchObject({
      EndpointName: 'llm',
      ContentType: 'application/json',
      Accept: 'application/jsonlines',
      TargetVariant: 'v2',
      InferenceComponentName: 'ic-llama',
      SessionId: 'sess-42',
      CustomAttributes: 'trace=1',
    });
  });
});

let emulator: SageMakerEmulator;
const time = createManualDelay();
beforeAll(async () => {
  emulator = await startSageMakerEmulator({
    delay: time.delay,
    endpoints: {
      validation: sageMakerChatEndpoint({ script: { failTimes: 99, failStatus: 400 } }),
      model: sageMakerChatEndpoint({ script: { failTimes: 99, failStatus: 424 } }),
      // Its own endpoint, called by one test only: the message counts the endpoint's calls.
      'model-message': sageMakerChatEndpoint({ script: { failTimes: 99, failStatus: 424 } }),
      throttled: sageMakerChatEndpoint({
        script: { failTimes: 99, failStatus: 400, errorType: 'ThrottlingException' },
      }),
      unavailable: sageMakerChatEndpoint({ script: { failTimes: 99, failStatus: 503 } }),
      notready: sageMakerChatEndpoint({
        script: { failTimes: 99, failStatus: 429, errorType: 'ModelNotReadyException' },
      }),
      leaky: sageMakerChatEndpoint({
        script: {
          failTimes: 99,
          failStatus: 500,
          failBody: { message: `bad key ${credentials.secretAccessKey} and ${credentials.sessionToken}` },
        },
      }),
      stalls: sageMakerChatEndpoint({
        payload: 'jsonlines',
        reply: 'one two three',
        script: { stallAfterChunks: 1 },
      }),
      slow: sageMakerChatEndpoint({ payload: 'jsonlines', reply: 'one two', script: { chunkGapMs: 250 } }),
      crc: sageMakerChatEndpoint({
        payload: 'jsonlines',
        reply: 'one two',
        script: { malformedAfterChunks: 1 },
      }),
      reset: sageMakerChatEndpoint({
        payload: 'jsonlines',
        reply: 'one two three',
        script: { resetAfterChunks: 1 },
      }),
      unmodeled: sageMakerChatEndpoint({
        payload: 'jsonlines',
        reply: 'one two',
        script: { errorEventAfterChunks: 1, errorEvent: { type: 'ThrottledStream', message: 'slow down' } },
      }),
    },
  });
});
afterAll(() => emulator.close());

function adapter(endpointName: string) {
  return createSageMakerAdapter({
    name: 'sm',
    region: 'us-east-1',
    endpointName,
    endpointUrl: emulator.url,
    credentials,
    chat: { payload: 'jsonlines' },
  });
}

async function failure(endpointName: string, attempt = attemptOf()) {
  return collectUntilError(adapter(endpointName).chat!.chat({ model: 'default', messages }, attempt));
}

describe('SageMaker HTTP errors (x-amzn-errortype, PROTOCOLS 5.4)', () => {
  it.each([
    ['validation', 400, 'ValidationError', false],
    ['model', 424, 'ModelError', false],
    ['throttled', 429, 'ThrottlingException', true],
    ['notready', 429, 'ModelNotReadyException', true],
    ['unavailable', 503, 'ServiceUnavailable', true],
  ])('%s: status %i, code %s, retryable %s', async (endpointName, status, code, retryable) => {
    const { items, error } = await failure(endpointName);
    expect(items).toEqual([]);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      provider: 'sm',
      status,
      providerCode: code,
      retryable,
      partialOutput: false,
    });
  });

  it('a ModelError message names the container status', async () => {
    const { error } = await failure('model-message');
    expect((error as Error).message).toBe(
      "Provider 'sm' answered HTTP 424 ModelError (the container answered 500): mock failure 1 of 99",
    );
  });

  it('never puts a credential in an error message', async () => {
    const { error } = await failure('leaky');
    const message = (error as Error).message;
    expect(message).toBe(
      "Provider 'sm' answered HTTP 500 InternalFailure: bad key [redacted] and [redacted]",
    );
    expect(JSON.stringify({ message, stack: (error as Error).stack })).not.toContain(
      credentials.secretAccessKey,
    );
  });
});

describe('SageMaker stream faults over the emulator', () => {
  it('an idle gap longer than deadlines.idleMs between PayloadParts is TimeoutError "idle"', async () => {
    const { items, error } = await failure('stalls', attemptOf(undefined, { idleMs: 100 }));
    expect(items).toEqual([{ type: 'text-delta', text: 'one ' }]);
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ phase: 'idle', timeoutMs: 100, retryable: true, partialOutput: true });
    const record = emulator.requests.at(-1)!;
    expect(await record.ended).toBe('aborted');
  });

  it('aborting the attempt mid-stream closes the connection and ends with AbortError', async () => {
    const controller = new AbortController();
    const iterator = adapter('slow')
      .chat!.chat({ model: 'default', messages }, attemptOf(controller.signal))
      [Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: { type: 'text-delta', text: 'one ' } });
    const pending = iterator.next();
    await time.whenWaiting();
    controller.abort();
    await expect(pending).rejects.toSatisfy((e: unknown) => AbortError.isInstance(e));
    expect(await emulator.requests.at(-1)!.ended).toBe('aborted');
  });

  it('breaking out of the stream (barge-in) closes the connection', async () => {
    const iterator = adapter('slow')
      .chat!.chat({ model: 'default', messages }, attemptOf())
      [Symbol.asyncIterator]();
    await iterator.next();
    await iterator.return?.();
    expect(await emulator.requests.at(-1)!.ended).toBe('aborted');
  });

  it('a message with a wrong CRC is a retryable ProtocolError', async () => {
    const { items, error } = await failure('crc');
    expect(items).toEqual([{ type: 'text-delta', text: 'one ' }]);
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ retryable: true, partialOutput: true });
  });

  it('a connection reset mid-stream is a retryable truncated ProtocolError', async () => {
    const { items, error } = await failure('reset');
    expect(items).toEqual([{ type: 'text-delta', text: 'one ' }]);
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ retryable: true, partialOutput: true });
  });

  it('an unmodeled stream error (:message-type error) is a retryable ProviderError named by its code', async () => {
    const { error } = await failure('unmodeled');
    expect(error).toMatchObject({
      code: 'PROVIDER_ERROR',
      providerType: 'ThrottledStream',
      retryable: true,
      partialOutput: true,
    });
  });

  it('a refused connection is a retryable ProviderError without status', async () => {
    const dead = createSageMakerAdapter({
      name: 'sm',
      region: 'us-east-1',
      endpointName: 'llm',
      endpointUrl: 'http://127.0.0.1:9',
      credentials,
      chat: { payload: 'jsonlines' },
    });
    const { error } = await collectUntilError(dead.chat!.chat({ model: 'default', messages }, attemptOf()));
    expect(error).toMatchObject({ code: 'PROVIDER_ERROR', status: undefined, retryable: true });
  });
});
