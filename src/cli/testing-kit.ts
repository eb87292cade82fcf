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

/** Provider kinds whose mocks serve WebSockets, and so need the optional peer dependency `ws`. */
const WEBSOCKET_KINDS = new Set(['cartesia', 'deepgram', 'elevenlabs']);

/**
 * Checks that the optional peer dependency `ws` loads when one of `providers` (name and kind) is
 * of a kind whose mock serves WebSockets (Cartesia, Deepgram, ElevenLabs), before any mock
 * starts; without such a provider, `ws` is not loaded.
 * @throws CliError (exit EXIT_UNAVAILABLE) prefixed with `command`, naming those providers and
 *   `ws`, when it cannot be loaded.
 */
export async function requireWs(command: string, providers: ReadonlyArray<[string, string]>): Promise<void> {
  const needing = providers.filter(([, kind]) => WEBSOCKET_KINDS.has(kind)).map(([name]) => name);
  if (needing.length === 0) return;
  try {
    await import('ws');
  } catch {
    throw new CliError(
      `${command}: the mocks of ${needing.join(', ')} serve WebSockets and need the optional peer dependency ws: npm install ws`,
      EXIT_UNAVAILABLE,
    );
  }
}
