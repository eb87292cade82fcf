/**
 * A stand-in for `@aws-sdk/client-sagemaker-runtime` whose load ends when the test says, for
 * tests of when the AWS SDK loads. Use it from `vi.hoisted` and `vi.mock` (both run before
 * the file's imports, hence the dynamic imports):
 *
 *   const sdk = await vi.hoisted(async () => (await import('./sdk-stub.js')).sdkStub());
 *   vi.mock('@aws-sdk/client-sagemaker-runtime', async () =>
 *     (await import('./sdk-stub.js')).stubSageMakerSdk(sdk));
 */
import type { RouterConfig } from '../../../src/index.js';
import { credentials } from './helpers.js';

/** One SageMaker chat provider (JSON lines) on a route with a 300 ms first-chunk deadline. */
export const sageMaker: RouterConfig = {
  providers: {
    sm: {
      kind: 'sagemaker',
      region: 'eu-west-1',
      endpointName: 'llm',
      endpointUrl: 'http://127.0.0.1:9',
      credentials,
      chat: { models: { fast: 'default' }, payload: 'jsonlines' },
    },
  },
  routes: { chat: { providers: ['sm'], firstChunkTimeoutMs: 300 } },
};
export const messages = [{ role: 'user' as const, content: 'Book a table' }];

/** What the stub module and its test share. */
export interface SdkStub {
  /** How many times the module was loaded (once per test file). */
  loads: number;
  /** Ends the module's load. */
  release(): void;
  /** One a `send`: calling it lets the endpoint's one PayloadPart out. */
  answers: Array<() => void>;
  /** How many SageMakerRuntimeClients were made. */
  clients: number;
}

/** A fresh stub state: the load waits for `release()`. */
export function sdkStub(): SdkStub & { loaded: Promise<void> } {
  let release!: () => void;
  const loaded = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { loads: 0, loaded, release, answers: [], clients: 0 };
}

/**
 * The module as the adapter uses it: `InvokeEndpointWithResponseStreamCommand` and a
 * `SageMakerRuntimeClient` whose `send` answers at once with an event stream that yields one
 * JSON-lines PayloadPart (`{"outputs":["Table for two."]}`) when the test calls its answer.
 */
export async function stubSageMakerSdk(sdk: SdkStub & { loaded: Promise<void> }) {
  sdk.loads++;
  await sdk.loaded;
  class InvokeEndpointWithResponseStreamCommand {
    constructor(readonly input: unknown) {}
  }
  class SageMakerRuntimeClient {
    constructor() {
      sdk.clients++;
    }
    async send() {
      let answer!: () => void;
      const answered = new Promise<void>((resolve) => {
        answer = resolve;
      });
      sdk.answers.push(answer);
      return {
        Body: (async function* () {
          await answered;
          yield { PayloadPart: { Bytes: new TextEncoder().encode('{"outputs":["Table for two."]}\n') } };
        })(),
      };
    }
    destroy() {}
  }
  return { InvokeEndpointWithResponseStreamCommand, SageMakerRuntimeClient };
}
