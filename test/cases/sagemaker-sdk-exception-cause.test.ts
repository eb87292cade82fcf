/**
 * A SageMaker HTTP error keeps no AWS SDK exception as its cause. The SDK's exception carries
 * `$response.body.req`, the live ClientRequest, whose header text holds `x-amz-security-token`
 * (temporary credentials) and the SigV4 `Authorization`; anything that walks own properties
 * (`util.inspect` with `showHidden`, error serialisers) reached them. The cause is now a plain
 * copy: name, redacted message, `$fault`, `$metadata.httpStatusCode` and `requestId`. The
 * endpoint speaks HTTP on its own (node:http on loopback), as SageMaker Runtime answers errors.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { AllProvidersFailedError, ProviderError } from '../../src/index.js';
import { reachableSecrets } from '../helpers/reachable.js';
import { drain, httpServer, router } from './wire/servers.js';

/** Made-up temporary credentials, written in parts so that no credential-shaped literal is in the tree. */
const CREDENTIALS = {
  accessKeyId: `${'ASIA'}EXAMPLE0EXAMPLE0`,
  secretAccessKey: `wJalrXUtnFEMI/K7MDENG/${'bPxRfiCYSECRETKEY'}`,
  sessionToken: `IQoJb3JpZ2luX2Vj${'EXAMPLESESSIONTOKEN0123456789abcdefABCDEF+/='}`,
};

async function failedCall(status: number, type: string, body: string) {
  const server = await httpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'x-amzn-errortype': type,
        'x-amzn-requestid': 'req-0001',
      });
      res.end(body);
    });
  });
  const { error } = await drain(
    router({
      providers: {
        sm: {
          kind: 'sagemaker',
          region: 'us-east-1',
          endpointName: 'ep',
          endpointUrl: server.url,
          credentials: CREDENTIALS,
          chat: { models: { fast: 'default' } },
        },
      },
      routes: { chat: { providers: ['sm'], strategy: 'priority' } },
    }).chat({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] }),
  );
  const attempt = (
    error instanceof AllProvidersFailedError ? error.attempts[0]!.error : error
  ) as ProviderError;
  expect(attempt).toBeInstanceOf(ProviderError);
  return { error: error as Error, attempt };
}

const FORBIDDEN = [
  CREDENTIALS.accessKeyId,
  CREDENTIALS.secretAccessKey,
  CREDENTIALS.sessionToken,
  CREDENTIALS.sessionToken.slice(0, 16),
  'AWS4-HMAC-SHA256',
  'x-amz-security-token',
];

describe('a SageMaker SDK exception is never kept as a cause', () => {
  for (const [status, type, body, fault] of [
    [503, 'ServiceUnavailable', '{"message":"unavailable"}', 'server'],
    [424, 'ModelError', '{"message":"container failed","OriginalStatusCode":500}', 'client'],
    [400, 'ThrottlingException', '{"message":"slow down"}', 'client'],
  ] as const)
    it(`HTTP ${status} ${type}: no credential reachable; the cause is a plain copy`, async () => {
      const { error, attempt } = await failedCall(status, type, body);
      expect(reachableSecrets(error, FORBIDDEN)).toEqual([]);
      const shown = inspect(error, { showHidden: true, depth: 12 });
      for (const secret of FORBIDDEN) expect(shown.toLowerCase()).not.toContain(secret.toLowerCase());

      const cause = attempt.cause as Error & { $fault: string; $metadata: Record<string, unknown> };
      expect(cause).toBeInstanceOf(Error);
      expect(Reflect.ownKeys(cause).sort()).toEqual(['$fault', '$metadata', 'message', 'name', 'stack']);
      expect(cause.name).toBe(type);
      expect(cause.message).toBe(JSON.parse(body).message);
      expect(cause.$fault).toBe(fault);
      expect(cause.$metadata).toEqual({ httpStatusCode: status, requestId: 'req-0001' });
      expect(cause.stack).toBe(`${type}: ${JSON.parse(body).message}`);
    });
});
