import type { Capability } from '../types/route-result.js';

/**
 * The capabilities a provider section or a route can have, in the order the config lists
 * them. A provider has a capability when its config has the section of that name (`tts`,
 * `stt` or `chat`); a route named after one has it implicitly.
 */
export const CAPABILITIES = ['tts', 'stt', 'chat'] as const satisfies readonly Capability[];

/** True when `name` is one of {@link CAPABILITIES}. */
export function isCapability(name: string): name is Capability {
  return (CAPABILITIES as readonly string[]).includes(name);
}
