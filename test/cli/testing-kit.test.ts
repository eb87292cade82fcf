/**
 * `demo` and `mock` without msw: voxroute/testing cannot be loaded, and the message names what
 * is missing: msw for both; ws (loaded only for WebSocket mocks) for `mock` only, since the
 * demo's mocks are HTTP only (docs/cli.md).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.doUnmock('voxroute/testing');
  vi.resetModules();
});

async function failureOf(command: string): Promise<{ message: string; exitCode: number }> {
  vi.resetModules();
  vi.doMock('voxroute/testing', () => {
    throw new Error("Cannot find package 'msw'");
  });
  const { loadTestingKit } = await import('../../src/cli/testing-kit.js');
  return loadTestingKit(command).then(
    () => {
      throw new Error('loaded');
    },
    (error: { message: string; exitCode: number }) => ({ message: error.message, exitCode: error.exitCode }),
  );
}

describe('loadTestingKit without msw', () => {
  it('demo: exit 5 naming msw only', async () => {
    const { message, exitCode } = await failureOf('demo');
    expect(exitCode).toBe(5);
    expect(message).toMatch(
      /^demo: voxroute\/testing could not be loaded \(.*\); it needs the optional peer dependency msw: npm install msw$/,
    );
  });

  it('mock: exit 5 naming msw, and ws for the WebSocket mocks', async () => {
    const { message, exitCode } = await failureOf('mock');
    expect(exitCode).toBe(5);
    expect(message).toMatch(
      /^mock: voxroute\/testing could not be loaded \(.*\); it needs the optional peer dependency msw: npm install msw \(and ws for Cartesia, Deepgram or ElevenLabs mocks: npm install ws\)$/,
    );
  });
});
