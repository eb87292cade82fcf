import type { SageMakerCredentials } from '../options.js';
import { loadSageMakerSdk } from '../sdk-client.js';

/** Resolves the AWS credentials to sign with, on each call (so expiring ones are refreshed). */
export type CredentialSource = () => Promise<SageMakerCredentials>;

/**
 * The credentials of a bidirectional stream: the static ones when configured, else the AWS
 * SDK's default provider chain (environment, shared config and SSO, container and instance
 * roles), taken from a `SageMakerRuntimeClient` made for `region` (the SDK caches and refreshes
 * them). The SDK module is loaded on the first call only.
 */
export function credentialSource(
  region: string,
  credentials: SageMakerCredentials | undefined,
): CredentialSource {
  if (credentials) return () => Promise.resolve(credentials);
  let client: Promise<{ config: { credentials: () => Promise<SageMakerCredentials> } }> | undefined;
  return async () => {
    client ??= loadSageMakerSdk().then(
      (mod) =>
        new mod.SageMakerRuntimeClient({ region }) as unknown as {
          config: { credentials: () => Promise<SageMakerCredentials> };
        },
    );
    const identity = await (await client).config.credentials();
    return {
      accessKeyId: identity.accessKeyId,
      secretAccessKey: identity.secretAccessKey,
      ...(identity.sessionToken ? { sessionToken: identity.sessionToken } : {}),
    };
  };
}
