import type { HttpHandler } from 'msw';
import { http } from 'msw';
import { createSageMakerMock, type SageMakerMock, type SageMakerMockOptions } from './mock.js';

/**
 * Options of {@link sageMakerHandlers}: the endpoint URL the client uses (e.g.
 * `'https://runtime.sagemaker.us-east-1.amazonaws.com'`) and either a mock or options for a new one.
 *
 * @example
 * ```ts
 * const options: SageMakerHandlersOptions = { endpointUrl: 'https://runtime.sagemaker.us-east-1.amazonaws.com', endpoints: {} };
 * ```
 */
export type SageMakerHandlersOptions = { endpointUrl: string } & (
  | { provider: SageMakerMock }
  | (SageMakerMockOptions & { provider?: undefined })
);

/**
 * msw request handlers serving the SageMaker mock at `endpointUrl`:
 * `POST {endpointUrl}/endpoints/:name/invocations-response-stream` and `.../invocations`.
 * msw intercepts node:http, which the AWS SDK's default handler uses, so an SDK client (or
 * voxroute's SageMaker adapter) with no custom `endpoint` talks to the mock when
 * `endpointUrl` is the regional URL. HTTP/2 (the bidirectional operation) is not intercepted:
 * use `startSageMakerEmulator` for it.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * const server = setupServer(...sageMakerHandlers({
 *   endpointUrl: 'https://runtime.sagemaker.us-east-1.amazonaws.com',
 *   endpoints: { llm: sageMakerChatEndpoint() },
 * }));
 * ```
 */
export function sageMakerHandlers(options: SageMakerHandlersOptions): HttpHandler[] {
  const { endpointUrl, provider, ...mockOptions } = options;
  const mock = provider ?? createSageMakerMock(mockOptions);
  const base = endpointUrl.replace(/\/+$/, '');
  return ['invocations-response-stream', 'invocations'].map((operation) =>
    http.post(`${base}/endpoints/:name/${operation}`, ({ request }) => mock.handle(request)),
  );
}
