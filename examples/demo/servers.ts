/**
 * The demo's two "EC2" servers on loopback: the self-hosted reference server when the Debian
 * engines are installed, else the testing kit's OpenAI-compatible mock. `ec2-a` is scripted
 * to fail; `ec2-b` is healthy.
 */
import { createOpenAiCompatibleMock, startMockServer } from 'voxroute/testing';
import { findExecutable } from '../self-hosted-server/engines.js';
import { type FailMode, startSelfHostedServer } from '../self-hosted-server/server.js';

/** Which servers run: the real engines, or mocks. */
export type DemoMode = 'engines' | 'mock';

/** Running demo servers. */
export interface DemoServers {
  mode: DemoMode;
  /** Debian packages that would make the demo use real engines; empty in `engines` mode. */
  missing: string[];
  /** Base URLs (`http://127.0.0.1:PORT/v1`) of the failing server and of the healthy one. */
  baseUrls: [string, string];
  close(): Promise<void>;
}

/** True when espeak-ng and a pocketsphinx CLI are on PATH; else the packages to install. */
export async function missingEngines(): Promise<string[]> {
  const missing: string[] = [];
  if (!(await findExecutable('espeak-ng'))) missing.push('espeak-ng');
  if (!(await findExecutable('pocketsphinx_continuous')) && !(await findExecutable('pocketsphinx'))) {
    missing.push('pocketsphinx', 'pocketsphinx-en-us');
  }
  return missing;
}

/**
 * Starts the failing server on `ports[0]` and the healthy one on `ports[1]` (0: any free port).
 * `forceMock` uses the mocks even when the engines exist. Rejects when a port is taken.
 */
export async function startDemoServers(options: {
  ports: [number, number];
  failMode: Exclude<FailMode, 'none'>;
  forceMock?: boolean;
}): Promise<DemoServers> {
  const missing = await missingEngines();
  const [portA, portB] = options.ports;
  if (!options.forceMock && missing.length === 0) {
    const a = await startSelfHostedServer({ port: portA, failMode: options.failMode });
    const b = await startSelfHostedServer({ port: portB }).catch(async (error: unknown) => {
      await a.close();
      throw error;
    });
    return {
      mode: 'engines',
      missing,
      baseUrls: [a.baseUrl, b.baseUrl],
      close: async () => void (await Promise.all([a.close(), b.close()])),
    };
  }
  const failScript =
    options.failMode === '503'
      ? { failTimes: Number.MAX_SAFE_INTEGER, failStatus: 503, retryAfter: '1' }
      : options.failMode === 'reset'
        ? { resetAfterChunks: 0 }
        : { stallAfterChunks: 0 };
  const a = await startMockServer({
    provider: createOpenAiCompatibleMock({ script: failScript }),
    port: portA,
  });
  const b = await startMockServer({
    provider: createOpenAiCompatibleMock({
      transcript:
        'And so my fellow Americans ask not what your country can do for you ask what you can do for your country.',
      chat: 'You asked what you can do for your country. Start by voting, volunteering, and helping a neighbour.',
    }),
    port: portB,
  }).catch(async (error: unknown) => {
    await a.close();
    throw error;
  });
  return {
    mode: 'mock',
    missing,
    baseUrls: [`${a.url}/v1`, `${b.url}/v1`],
    close: async () => void (await Promise.all([a.close(), b.close()])),
  };
}
