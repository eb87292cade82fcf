import type { AttemptContext } from '../../../src/providers/types.js';
import type { Deadlines, HttpTransport } from '../../../src/transport/types.js';

export const encoder = new TextEncoder();

export { chunksOf as partsOf, collect, collectUntilError } from '../../helpers/index.js';

/** A transport that must not be used (SageMaker adapters talk through the AWS SDK). */
export const unusedTransport: HttpTransport = {
  request: () => Promise.reject(new Error('the SageMaker adapter must not use the HTTP transport')),
  close: async () => {},
};

/** An AttemptContext for the SageMaker adapter. */
export function attemptOf(
  signal: AbortSignal = new AbortController().signal,
  deadlines: Deadlines = { connectMs: 2000, headersMs: 5000, idleMs: 5000 },
): AttemptContext {
  return { signal, deadlines, transport: unusedTransport };
}

/** Fake static credentials for the SDK. */
export const credentials = {
  accessKeyId: 'AKIDVOXROUTETEST',
  secretAccessKey: 'voxroute-test-secret-key-9f8e7d6c5b4a',
  sessionToken: 'voxroute-session-token-0123456789',
};
