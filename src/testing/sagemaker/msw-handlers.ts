import type { HttpHandler } from 'msw';
import { mockOf, type ProviderOrOptions, postRoutes, trimBase } from '../msw-routes.js';
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
export type SageMakerHandlersOptions = {
  /**
   * SageMaker Runtime URL the client calls, e.g. `'https://runtime.sagemaker.us-east-1.amazonaws.com'`;
   * a trailing slash is ignored.
   */
  endpointUrl: string;
} & ProviderOrOptions<SageMakerMock, SageMakerMockOptions>;

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
 * @throws TypeError naming the argument when `options` is not an object, `endpointUrl` is not a
 *   string, or `provider` is given but is not a mock (and the mock factory's own for wrong mock
 *   options).
 */
export function sageMakerHandlers(options: SageMakerHandlersOptions): HttpHandler[] {
  const mock = mockOf(options, createSageMakerMock, 'sageMakerHandlers', 'endpointUrl');
  return postRoutes(mock, trimBase(options.endpointUrl, 'sageMakerHandlers: options.endpointUrl'), [
    '/endpoints/:name/invocations-response-stream',
    '/endpoints/:name/invocations',
  ]);
}
