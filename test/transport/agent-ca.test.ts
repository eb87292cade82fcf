import { rootCertificates } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { tunedAgentOptions } from '../../src/transport/index.js';

// Any valid certificate will do (the `ca` entries are checked to parse): one of the bundled roots.
const PEM = rootCertificates[0]!;

describe('tunedAgentOptions({ ca })', () => {
  it('adds the given CAs to Node’s bundled roots (Node’s own `ca` would replace them)', () => {
    const connect = tunedAgentOptions({ ca: PEM }).connect as { ca: string[] };
    expect(connect.ca).toEqual([...rootCertificates, PEM]);
    const two = tunedAgentOptions({ ca: [PEM, `${PEM}x`] }).connect as { ca: string[] };
    expect(two.ca.slice(-2)).toEqual([PEM, `${PEM}x`]);
    expect(two.ca.length).toBe(rootCertificates.length + 2);
  });

  it('without `ca`: no `connect.ca` at all (Node’s defaults apply)', () => {
    expect('ca' in (tunedAgentOptions().connect as object)).toBe(false);
  });
});
