import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { type MockProvider, type MockServer, startMockServer } from '../../src/testing/index.js';

const run = promisify(execFile);

// A provider that answers HTTP with its path and echoes WebSocket text frames in upper case.
const provider: MockProvider = {
  requests: [],
  handle: async (request) => new Response(`https ${new URL(request.url).pathname}`),
  upgrade: () => ({
    accept(socket) {
      socket.onMessage((data) => socket.send(typeof data === 'string' ? data.toUpperCase() : data));
    },
  }),
};

let server: MockServer;
let agent: Agent;

beforeAll(async () => {
  server = await startMockServer({ provider, tls: true });
  agent = new Agent({ connect: { ca: server.ca } });
});
afterAll(async () => {
  await server.close();
  await agent.close();
});

describe('startMockServer({ tls: true })', () => {
  it('serves https:// and wss:// origins and hands out its self-signed certificate as the CA', () => {
    expect(server.url).toBe(`https://127.0.0.1:${server.port}`);
    expect(server.wsUrl).toBe(`wss://127.0.0.1:${server.port}`);
    expect(server.ca).toMatch(/^-----BEGIN CERTIFICATE-----\r?\n[\s\S]+-----END CERTIFICATE-----\r?\n?$/);
  });

  it('answers HTTPS to an undici client given the CA, by IP and by localhost', async () => {
    const byIp = await undiciFetch(`${server.url}/v1/ping`, { dispatcher: agent });
    expect(byIp.status).toBe(200);
    expect(await byIp.text()).toBe('https /v1/ping');
    const byName = await undiciFetch(`https://localhost:${server.port}/v1/name`, { dispatcher: agent });
    expect(await byName.text()).toBe('https /v1/name');
  });

  it('is refused by a client that was not given the CA (self-signed, untrusted)', async () => {
    const plain = new Agent();
    try {
      const error = await undiciFetch(`${server.url}/v1/ping`, { dispatcher: plain }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TypeError);
      expect((error as { cause?: { code?: string } }).cause?.code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    } finally {
      await plain.close();
    }
  });

  it('serves WebSocket over wss:// to a ws client given { ca }', async () => {
    const client = new WebSocket(`${server.wsUrl}/echo`, { ca: server.ca });
    try {
      await once(client, 'open');
      client.send('hello tls');
      const [data, isBinary] = (await once(client, 'message')) as [Buffer, boolean];
      expect(isBinary).toBe(false);
      expect(data.toString('utf8')).toBe('HELLO TLS');
    } finally {
      client.terminate();
    }
  });

  it('is trusted by a Node process started with NODE_EXTRA_CA_CERTS naming the CA file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'voxroute-tls-'));
    try {
      const caFile = join(dir, 'mock-ca.pem');
      await writeFile(caFile, server.ca!);
      const script = `fetch(${JSON.stringify(`${server.url}/child`)}).then(r => r.text()).then(t => process.stdout.write(t))`;
      const { stdout } = await run(process.execPath, ['-e', script], {
        env: { ...process.env, NODE_EXTRA_CA_CERTS: caFile },
      });
      expect(stdout).toBe('https /child');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
