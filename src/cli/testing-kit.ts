import { CliError } from './cli-error.js';
import { EXIT_UNAVAILABLE } from './exit-codes.js';

/**
 * voxroute/testing, loaded on demand by the commands that serve its mocks (`demo`, `mock`).
 * @throws CliError (exit EXIT_UNAVAILABLE) prefixed with `command` when it cannot be loaded,
 *   which names the optional peer dependencies it needs (msw, ws).
 */
export async function loadTestingKit(command: string): Promise<typeof import('voxroute/testing')> {
  try {
    return await import('voxroute/testing');
  } catch (error) {
    throw new CliError(
      `${command}: voxroute/testing could not be loaded (${(error as Error).message}); it needs the optional peer dependencies msw and ws: npm install msw ws`,
      EXIT_UNAVAILABLE,
    );
  }
}
