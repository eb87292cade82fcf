import {
  InvokeEndpointCommand,
  InvokeEndpointWithResponseStreamCommand,
  ModelNotReadyException,
  SageMakerRuntimeClient,
} from '@aws-sdk/client-sagemaker-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type SageMakerEmulator,
  sageMakerChatEndpoint,
  startSageMakerEmulator,
} from '../../../src/testing/index.js';

const credentials = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};
const decoder = new TextDecoder();

let emulator: SageMakerEmulator;
let client: SageMakerRuntimeClient;
beforeAll(async () => {
  emulator = await startSageMakerEmulator({
    endpoints: {
      llm: sageMakerChatEndpoint({ payload: 'jsonlines', reply: 'Your table is booked.' }),
      broken: sageMakerChatEndpoint({
        payload: 'jsonlines',
        reply: 'Hello there friend',
        script: {
          errorEventAfterChunks: 1,
          errorEvent: { code: 'ModelInvocationTimeExceeded', message: 'took too long' },
        },
      }),
      failing: sageMakerChatEndpoint({ script: { failTimes: 1, failStatus: 424 } }),
      busy: sageMakerChatEndpoint({ script: { failTimes: 1, failStatus: 429, retryAfter: '3' } }),
      throttled: sageMakerChatEndpoint({
        script: { failTimes: 1, failStatus: 400, errorType: 'ThrottlingException' },
      }),
    },
  });
  client = new SageMakerRuntimeClient({
    region: 'us-east-1',
    endpoint: emulator.url,
    credentials,
    maxAttempts: 1,
  });
});
afterAll(async () => {
  client.destroy();
  await emulator.close();
});

describe('the official @aws-sdk/client-sagemaker-runtime against the emulator (wire accuracy)', () => {
  it('streams PayloadParts of InvokeEndpointWithResponseStream, with the request headers the SDK sends', async () => {
    const response = await client.send(
      new InvokeEndpointWithResponseStreamCommand({
        EndpointName: 'llm',
        Body: new TextEncoder().encode('{"inputs":"Hi","stream":true}'),
        ContentType: 'application/json',
        Accept: 'application/jsonlines',
        TargetVariant: 'blue',
        SessionId: 'sess-7',
      }),
    );
    const parts: string[] = [];
    for await (const event of response.Body!) {
      if (event.PayloadPart?.Bytes) parts.push(decoder.decode(event.PayloadPart.Bytes));
    }
    expect(parts).toEqual([
      '{"token":{"text":"Your "}}\n',
      '{"token":{"text":"table "}}\n',
      '{"token":{"text":"is "}}\n',
      '{"token":{"text":"booked."}}\n',
    ]);
    expect(response.ContentType).toBe('application/jsonlines');
    expect(response.InvokedProductionVariant).toBe('blue');
    const record = emulator.requests.at(-1)!;
    expect(record.path).toBe('/endpoints/llm/invocations-response-stream');
    expect(record.body).toEqual({ inputs: 'Hi', stream: true });
    expect(record.headers['x-amzn-sagemaker-accept']).toBe('application/jsonlines');
    expect(record.headers['x-amzn-sagemaker-target-variant']).toBe('blue');
    expect(record.headers['x-amzn-sagemaker-session-id']).toBe('sess-7');
    expect(record.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/sagemaker\/aws4_request/,
    );
  });

  it('surfaces a ModelStreamError after the first PayloadPart as the SDK error class', async () => {
    const response = await client.send(
      new InvokeEndpointWithResponseStreamCommand({
        EndpointName: 'broken',
        Body: new Uint8Array([123, 125]),
      }),
    );
    const parts: string[] = [];
    let caught: unknown;
    try {
      for await (const event of response.Body!) {
        if (event.PayloadPart?.Bytes) parts.push(decoder.decode(event.PayloadPart.Bytes));
      }
    } catch (error) {
      caught = error;
    }
    expect(parts).toEqual(['{"token":{"text":"Hello "}}\n']);
    expect(caught).toMatchObject({
      name: 'ModelStreamError',
      message: 'took too long',
      ErrorCode: 'ModelInvocationTimeExceeded',
      $fault: 'client',
    });
  });

  it('names HTTP errors from x-amzn-errortype (ModelError 424)', async () => {
    const error = await client
      .send(
        new InvokeEndpointWithResponseStreamCommand({ EndpointName: 'failing', Body: new Uint8Array([1]) }),
      )
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toMatchObject({
      name: 'ModelError',
      $metadata: { httpStatusCode: 424 },
      OriginalStatusCode: 500,
    });
  });

  it('a scripted 429 is the modeled ModelNotReadyException (client fault), as SageMaker Runtime sends it', async () => {
    const send = (name: string) =>
      client
        .send(new InvokeEndpointWithResponseStreamCommand({ EndpointName: name, Body: new Uint8Array([1]) }))
        .then(
          () => undefined,
          (e: unknown) => e,
        );
    const error = await send('busy');
    expect(error).toBeInstanceOf(ModelNotReadyException);
    expect(error).toMatchObject({
      name: 'ModelNotReadyException',
      message: 'mock failure 1 of 1',
      $fault: 'client',
      $metadata: { httpStatusCode: 429 },
    });
    expect(
      (error as { $response?: { headers: Record<string, string> } }).$response?.headers['retry-after'],
    ).toBe('3');
    // AWS's common throttling error, scripted by name: status 400, not a modeled class.
    const throttled = await send('throttled');
    expect(throttled).not.toBeInstanceOf(ModelNotReadyException);
    expect(throttled).toMatchObject({ name: 'ThrottlingException', $metadata: { httpStatusCode: 400 } });
  });

  it('answers ValidationError for an unknown endpoint', async () => {
    const error = await client
      .send(new InvokeEndpointWithResponseStreamCommand({ EndpointName: 'nope', Body: new Uint8Array([1]) }))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toMatchObject({
      name: 'ValidationError',
      message: 'Endpoint nope of account 000000000000 not found.',
      $metadata: { httpStatusCode: 400 },
    });
  });

  it('opens a stateful session with InvokeEndpoint and SessionId NEW_SESSION', async () => {
    const response = await client.send(
      new InvokeEndpointCommand({
        EndpointName: 'llm',
        Body: new TextEncoder().encode('{}'),
        SessionId: 'NEW_SESSION',
      }),
    );
    expect(response.NewSessionId).toBe('sess-1; Expires=2030-01-01T00:00:00Z');
    expect(decoder.decode(response.Body)).toContain('{"token":{"text":"Your "}}');
  });
});
