import { CliError } from './cli-error.js';
import { EXIT_UNAVAILABLE } from './exit-codes.js';

/**
 * voxroute/testing, loaded on demand by the commands that serve its mocks (`demo`, `mock`).
 * Loading it needs the optional peer dependency msw; `ws` is loaded only when a WebSocket mock
 * starts (Cartesia, Deepgram, ElevenLabs), so `mock` mentions it and `demo` (HTTP only) does not.
 * @throws CliError (exit EXIT_UNAVAILABLE) prefixed with `command` when it cannot be loaded,
 *   naming msw.
 */
export async function loadTestingKit(command: string): Promise<typeof import('voxroute/testing')> {
  try {
    return await import('voxroute/testing');
  } catch (error) {
    const ws =
      command === 'mock' ? ' (and ws for Cartesia, Deepgram or ElevenLabs mocks: npm install ws)' : '';
    throw new CliError(
      `${command}: voxroute/testing could not be loaded (${(error as Error).message}); it needs the optional peer dependency msw: npm install msw${ws}`,
      EXIT_UNAVAILABLE,
    );
  }
}
