/**
 * Shared helpers of the cross-provider end-to-end tests: mocks on real loopback sockets,
 * a router over them, and collectors that keep what a stream yielded before it failed.
 */
import { afterEach } from 'vitest';
import { readWav } from '../../../src/audio/index.js';
import { createRouter, type Router, type RouterConfig } from '../../../src/index.js';
import {
  type MockProvider,
  type MockServer,
  type RecordedFile,
  type RecordedRequest,
  type SageMakerEmulator,
  type SageMakerEndpoint,
  startMockServer,
  startSageMakerEmulator,
} from '../../../src/testing/index.js';
import type { AudioChunk, AudioFormat } from '../../../src/types/audio.js';

export const PCM24K: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 };
export const PCM16K: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 };
export const ULAW8K: AudioFormat = { encoding: 'mulaw', sampleRate: 8000, channels: 1 };

/** Static AWS credentials the emulator accepts (it checks the SigV4 shape, not the secret). */
export const AWS = {
  region: 'us-east-1',
  credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' },
} as const;

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** Serves `provider` on a loopback port until the end of the test; returns its base URL. */
export async function serve(provider: MockProvider): Promise<string> {
  const server: MockServer = await startMockServer({ provider });
  closers.push(() => server.close());
  return server.url;
}

/** Starts the SageMaker emulator with `endpoints` until the end of the test. */
export async function emulate(endpoints: Record<string, SageMakerEndpoint>): Promise<SageMakerEmulator> {
  const emulator = await startSageMakerEmulator({ endpoints });
  closers.push(() => emulator.close());
  return emulator;
}

/** A router over `config`, closed at the end of the test. */
export function router(config: RouterConfig): Router {
  const r = createRouter(config);
  closers.push(() => r.close());
  return r;
}

export { drain } from '../../helpers/index.js';

/** The bytes of `parts` end to end. */
export function concat(parts: readonly Uint8Array[]): Buffer {
  return Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength)));
}

/** Byte-exact comparison with a readable failure (lengths and the first differing offset). */
export function sameBytes(actual: Uint8Array, expected: Uint8Array): { length: number; firstDiff: number } {
  const a = Buffer.from(actual.buffer, actual.byteOffset, actual.byteLength);
  const b = Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength);
  let firstDiff = -1;
  const n = Math.min(a.byteLength, b.byteLength);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) {
      firstDiff = i;
      break;
    }
  }
  if (firstDiff === -1 && a.byteLength !== b.byteLength) firstDiff = n;
  return { length: a.byteLength - b.byteLength, firstDiff };
}

/** What `sameBytes` returns for equal byte strings. */
export const SAME = { length: 0, firstDiff: -1 } as const;

/** The audio of `chunks` split at the first chunk flagged `discontinuity`. */
export function splitAtSwitch(chunks: readonly AudioChunk[]): {
  before: Buffer;
  after: Buffer;
  flagged: number[];
} {
  const flagged = chunks.flatMap((c, i) => (c.discontinuity ? [i] : []));
  const at = flagged[0] ?? chunks.length;
  return {
    before: concat(chunks.slice(0, at).map((c) => c.data)),
    after: concat(chunks.slice(at).map((c) => c.data)),
    flagged,
  };
}

/** `bytes` in pieces of `size` bytes, as an async iterable (the caller's microphone). */
export async function* pieces(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.byteLength; i += size) yield bytes.subarray(i, i + size);
}

/** The PCM data of the WAV file an OpenAI-compatible transcription request uploaded. */
export async function uploadedPcm(request: RecordedRequest | undefined): Promise<Buffer> {
  const file = request?.form?.file as RecordedFile | undefined;
  if (!file) throw new Error('the request uploaded no file');
  const wav = readWav(
    (async function* () {
      yield file.bytes;
    })(),
  );
  const parts: Uint8Array[] = [];
  for await (const data of wav.data) parts.push(data);
  return concat(parts);
}

/** `[provider, outcome]` of each attempt of a routed stream's result. */
export function outcomes(result: { attempts: ReadonlyArray<{ provider: string; outcome: string }> }) {
  return result.attempts.map((a) => [a.provider, a.outcome]);
}
