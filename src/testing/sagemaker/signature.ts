import { createHash, createHmac } from 'node:crypto';

/**
 * Checks the signature chain of a bidirectional stream's envelopes on its own (node:crypto
 * only, independent of the signer the adapter uses). SigV4 event signing (AWSJS
 * `EventSigningStream`; `@smithy/signature-v4` `signEvent`, PROTOCOLS.md 5.5):
 * `signature = hex(HMAC(signingKey, "AWS4-HMAC-SHA256-PAYLOAD\n" + longDate + "\n" + scope + "\n"
 * + priorSignature + "\n" + hex(SHA256(encoded :date header)) + "\n" + hex(SHA256(payload))))`,
 * the first prior signature being the `Signature=` of the request's `Authorization` header.
 */
export class SignatureChain {
  private prior: string;
  private readonly region: string;
  private readonly service: string;

  /** Starts a chain from the request's `Authorization` header; throws when it is not SigV4. */
  constructor(
    authorization: string,
    private readonly secretAccessKey: string,
  ) {
    const signature = /Signature=([0-9a-f]{64})/.exec(authorization)?.[1];
    const scope = /Credential=[^/]+\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request/.exec(authorization);
    if (!signature || !scope) throw new Error('not a SigV4 Authorization header');
    this.prior = signature;
    this.region = scope[2]!;
    this.service = scope[3]!;
  }

  /**
   * True when `signature` (hex) signs an envelope with `:date` = `dateMs` and `payload`, chained
   * from the previous one; the chain moves on either way (to the signature received).
   */
  next(dateMs: number, payload: Uint8Array, signature: string): boolean {
    const longDate = new Date(dateMs)
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z')
      .replace(/[-:]/g, '');
    const shortDate = longDate.slice(0, 8);
    const scope = `${shortDate}/${this.region}/${this.service}/aws4_request`;
    const header = Buffer.alloc(1 + 5 + 1 + 8);
    header.writeUInt8(5, 0);
    header.write(':date', 1, 'utf8');
    header.writeUInt8(8, 6);
    header.writeBigInt64BE(BigInt(dateMs), 7);
    const sha = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
    const stringToSign = [
      'AWS4-HMAC-SHA256-PAYLOAD',
      longDate,
      scope,
      this.prior,
      sha(header),
      sha(payload),
    ].join('\n');
    const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
    const key = hmac(
      hmac(hmac(hmac(`AWS4${this.secretAccessKey}`, shortDate), this.region), this.service),
      'aws4_request',
    );
    const expected = createHmac('sha256', key).update(stringToSign).digest('hex');
    this.prior = signature;
    return expected === signature;
  }
}
