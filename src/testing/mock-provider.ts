import type { MockUpgrade } from './mock-websocket.js';
import type { RecordedRequest } from './recorded-request.js';

/**
 * A mock provider: one function from a web `Request` to a web `Response` (bodies streamed as
 * `ReadableStream`), plus the record of what it received. The same object is served through
 * msw handlers and by `startMockServer` on a real port.
 *
 * Conventions the servers rely on: `Response.error()` means "reset the connection before the
 * headers"; a body stream that errors means "reset the connection now"; `request.signal`
 * aborts when the client goes away.
 *
 * @example
 * ```ts
 * const mock: MockProvider = createOpenAiCompatibleMock();
 * const server = await startMockServer({ provider: mock });
 * ```
 */
export interface MockProvider {
  /** Answers one request. Never rejects: failures become error responses. */
  handle(request: Request): Promise<Response>;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[];
  /**
   * For mocks of WebSocket protocols: decides on an upgrade request (see MockUpgrade). Absent:
   * upgrades are refused with 404.
   */
  upgrade?(request: Request): MockUpgrade;
}
