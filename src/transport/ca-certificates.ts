import { valueShape } from '../internal/value-shape.js';

/**
 * Extra CA certificates, PEM, as `node:tls` takes them: a string (which may hold several), the
 * bytes of a PEM file (a Buffer from `readFileSync`, any Uint8Array), or an array of those.
 */
export type CaCertificates = string | Uint8Array | ReadonlyArray<string | Uint8Array>;

/** Entry lists {@link caEntries} has already checked, so that passing one on is not parsed again. */
const checked = new WeakSet<object>();

/**
 * A `ca` value's entries, each checked to hold PEM certificates that parse: node:tls takes any
 * text or bytes as `ca` without a word (`tls.createSecureContext` does not throw on Node 20) and
 * fails at the first TLS handshake instead, which would be charged to a provider. Text outside
 * certificate blocks (comments in a bundle) is allowed, as OpenSSL allows it.
 * @param name The field's path for messages, e.g. `createRouter: options.ca`; array entries add `[i]`.
 * @throws TypeError naming `name` (and the entry and certificate) for anything but
 *   {@link CaCertificates}, an entry with no PEM certificate block (a DER file, a key, empty
 *   text), or a block that does not parse. Messages never hold the value's bytes.
 */
export function caEntries(ca: unknown, name = 'ca'): Array<string | Uint8Array> {
  if (typeof ca === 'object' && ca !== null && checked.has(ca)) return ca as Array<string | Uint8Array>;
  const one = (value: unknown) => typeof value === 'string' || value instanceof Uint8Array;
  let entries: Array<string | Uint8Array>;
  if (one(ca)) {
    entries = [ca as string | Uint8Array];
    checkPem(entries[0]!, name);
  } else if (Array.isArray(ca) && ca.every(one)) {
    entries = [...(ca as Array<string | Uint8Array>)];
    for (const [i, entry] of entries.entries()) checkPem(entry, `${name}[${i}]`);
  } else {
    throw new TypeError(
      `${name} must be PEM certificates: a string, a Buffer or Uint8Array (e.g. readFileSync('ca.pem')), or an array of those; got ${shapeOf(ca)}`,
    );
  }
  checked.add(entries);
  return entries;
}

/** The labels OpenSSL reads a CA certificate under (PEM_read_bio_X509_AUX). */
const BEGIN = /-----BEGIN ((?:X509 |TRUSTED )?CERTIFICATE)-----/g;

/** Throws a TypeError naming `path` unless `entry` holds one or more PEM certificates, each parsing. */
function checkPem(entry: string | Uint8Array, path: string): void {
  // latin1: every byte maps to one char, so a binary (DER) file cannot throw while being read.
  const text =
    typeof entry === 'string'
      ? entry
      : Buffer.from(entry.buffer, entry.byteOffset, entry.byteLength).toString('latin1');
  const starts = [...text.matchAll(BEGIN)];
  if (starts.length === 0)
    throw new TypeError(
      `${path} holds no PEM certificate (node:tls takes PEM text: -----BEGIN CERTIFICATE----- blocks, not DER)`,
    );
  // node:crypto loads here, on the first extra CA, not when voxroute is imported.
  const { X509Certificate } = process.getBuiltinModule('node:crypto');
  starts.forEach((start, i) => {
    const endLine = `-----END ${start[1]}-----`;
    const end = text.indexOf(endLine, start.index);
    const at = `${path}: PEM certificate ${i + 1} of ${starts.length}`;
    if (end === -1 || end > (starts[i + 1]?.index ?? text.length))
      throw new TypeError(`${at} has no END line (a cut file?)`);
    try {
      new X509Certificate(text.slice(start.index, end + endLine.length));
    } catch (error) {
      // OpenSSL's error (its code and reason, never the input's bytes) as the cause: its codes
      // differ between OpenSSL versions, so the message does not depend on them.
      throw new TypeError(`${at} does not parse as an X.509 certificate (corrupt, or not a certificate)`, {
        cause: error,
      });
    }
  });
}

/** A value's type for a message (never its content: it may be a key given by mistake). */
function shapeOf(value: unknown): string {
  if (!Array.isArray(value)) return valueShape(value);
  const bad = value.find((v) => typeof v !== 'string' && !(v instanceof Uint8Array));
  return `an array holding ${valueShape(bad)}`;
}
