import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';

type Source = string | ArrayBuffer | ArrayBufferView;

function bytesOf(data: Source): Buffer {
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(data);
}

/**
 * SHA-256, or HMAC-SHA256 when given a secret, over node:crypto, in the shape
 * `@smithy/signature-v4` takes as its `sha256` option (a Checksum constructor: `update`,
 * `digest(): Promise<Uint8Array>`, `reset`). The secret is kept only inside the HMAC object.
 */
export class NodeSha256 {
  private hash: Hash | Hmac;
  private readonly make: () => Hash | Hmac;

  constructor(secret?: Source) {
    const key = secret === undefined ? undefined : bytesOf(secret);
    this.make = key === undefined ? () => createHash('sha256') : () => createHmac('sha256', key);
    this.hash = this.make();
  }

  update(chunk: Source): void {
    this.hash.update(bytesOf(chunk));
  }

  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }

  reset(): void {
    this.hash = this.make();
  }
}
