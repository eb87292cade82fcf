import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';

/** A certificate and its private key, PEM-encoded; the certificate is its own CA. */
export interface LoopbackCertificate {
  /** Private key, PKCS#8 PEM. */
  key: string;
  /** Self-signed X.509 certificate, PEM; hand it to clients as their CA. */
  cert: string;
}

let loadingSelfsigned: Promise<typeof import('selfsigned')> | undefined;

/** Loads the optional peer dependency `selfsigned` once, on the first TLS server. */
function loadSelfsigned(): Promise<typeof import('selfsigned')> {
  loadingSelfsigned ??= import('selfsigned').catch((error: unknown) => {
    loadingSelfsigned = undefined;
    throw new Error(
      'voxroute/testing: a TLS mock server needs the `selfsigned` package (npm i -D selfsigned)',
      {
        cause: error,
      },
    );
  });
  return loadingSelfsigned;
}

/**
 * Makes a fresh self-signed certificate (ECDSA P-256, SHA-256, valid from one minute ago for
 * one day), with a subject name of its own, for `localhost`, `127.0.0.1` and `::1`, plus `host`
 * when it is another name or IP (a wildcard address such as `0.0.0.0` or `::` is not added). Uses the `selfsigned` package
 * (optional peer dependency, loaded on first use); rejects with a clear Error when it is missing.
 */
export async function makeLoopbackCertificate(host: string): Promise<LoopbackCertificate> {
  const { generate } = await loadSelfsigned();
  const altNames: { type: 2 | 7; value?: string; ip?: string }[] = [
    { type: 2, value: 'localhost' },
    { type: 7, ip: '127.0.0.1' },
    { type: 7, ip: '::1' },
  ];
  const bare = host.replace(/^\[|\]$/g, '');
  const known = ['localhost', '127.0.0.1', '::1', '0.0.0.0', '::'];
  if (bare !== '' && !known.includes(bare))
    altNames.push(isIP(bare) === 0 ? { type: 2, value: bare } : { type: 7, ip: bare });
  const now = Date.now();
  // A subject of its own: a client given several of these certificates as one CA bundle finds
  // each server's by name (with one shared name, OpenSSL tries only the first and refuses).
  const pems = await generate([{ name: 'commonName', value: `voxroute loopback mock ${randomUUID()}` }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - 60_000),
    notAfterDate: new Date(now + 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}
