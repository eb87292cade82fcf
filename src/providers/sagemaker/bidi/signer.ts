import { lazyImport } from '../../../internal/lazy.js';
import type { EventStreamMessageCodec } from '../event-stream.js';
import type { SageMakerCredentials } from '../options.js';
import { NodeSha256 } from './sha256.js';

/** SigV4 signing name of SageMaker Runtime (PROTOCOLS.md 5.1, 5.5). */
export const SIGNING_SERVICE = 'sagemaker';

/**
 * The payload hash an event-stream request declares, added by `@aws-sdk/middleware-eventstream`
 * (PROTOCOLS.md 5.5): the body is signed event by event, not as a whole.
 */
export const STREAMING_PAYLOAD = 'STREAMING-AWS4-HMAC-SHA256-EVENTS';

/** The request to sign: an https or http URL and the headers to sign (lower-case names). */
export interface SignableRequest {
  url: URL;
  headers: Record<string, string>;
}

/** A signed request: the headers to send (with `authorization`, `x-amz-date`, ...) and the seed signature. */
export interface SignedRequest {
  headers: Record<string, string>;
  /** Hex `Signature=` of the `Authorization` header: the prior signature of the first event. */
  signature: string;
}

/** One signed envelope and its signature (the prior signature of the next one). */
export interface SignedEnvelope {
  bytes: Uint8Array;
  signature: string;
}

/**
 * Signs a bidirectional stream (PROTOCOLS.md 5.5, 5.6; AWSJS `EventSigningStream`):
 * - `signRequest`: SigV4 of the HTTP/2 request with `x-amz-content-sha256:
 *   STREAMING-AWS4-HMAC-SHA256-EVENTS` (`@smithy/signature-v4`, signing name `sagemaker`);
 * - `envelope`: wraps an encoded inner event message (or nothing: the end frame) in an outer
 *   message with headers `:date` (timestamp) and `:chunk-signature` (the 32 bytes of the
 *   HMAC-SHA256 event signature, chained from `prior`), the inner message as its payload.
 */
export interface BidiSigner {
  signRequest(request: SignableRequest, date: Date): Promise<SignedRequest>;
  envelope(inner: Uint8Array, prior: string, date: Date): Promise<SignedEnvelope>;
}

/** Loads `@smithy/signature-v4` on the first call (or preload), once per process. */
export const loadSignatureV4: () => Promise<typeof import('@smithy/signature-v4')> = lazyImport(
  () => import('@smithy/signature-v4'),
);

/**
 * A signer for one stream over `credentials` in `region`. `@smithy/signature-v4` is loaded with
 * a dynamic `import()` on first use. Secrets stay inside the signer; nothing is logged.
 */
export async function createBidiSigner(
  region: string,
  credentials: SageMakerCredentials,
  codec: EventStreamMessageCodec,
): Promise<BidiSigner> {
  const { SignatureV4 } = await loadSignatureV4();
  const signer = new SignatureV4({
    service: SIGNING_SERVICE,
    region,
    credentials: { ...credentials },
    sha256: NodeSha256,
    uriEscapePath: true,
  });
  return {
    async signRequest({ url, headers }, date) {
      const signed = await signer.sign(
        {
          method: 'POST',
          protocol: url.protocol,
          hostname: url.hostname,
          ...(url.port ? { port: Number(url.port) } : {}),
          path: url.pathname,
          query: {},
          headers: { ...headers },
        },
        { signingDate: date },
      );
      const out: Record<string, string> = {};
      for (const [name, value] of Object.entries(signed.headers)) out[name.toLowerCase()] = String(value);
      const signature = /Signature=([0-9a-f]{64})/.exec(out.authorization ?? '')?.[1];
      if (!signature) throw new Error('SigV4 signing gave no signature');
      return { headers: out, signature };
    },
    async envelope(inner, prior, date) {
      const dateHeader = { ':date': { type: 'timestamp' as const, value: date } };
      const signature = await signer.signMessage(
        { message: { headers: dateHeader, body: inner }, priorSignature: prior },
        { signingDate: date, signingRegion: region, signingService: SIGNING_SERVICE },
      );
      const bytes = codec.encode({
        headers: {
          ...dateHeader,
          ':chunk-signature': {
            type: 'binary',
            value: new Uint8Array(Buffer.from(signature.signature, 'hex')),
          },
        },
        body: inner,
      });
      return { bytes, signature: signature.signature };
    },
  };
}
