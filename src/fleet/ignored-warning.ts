import type { Logger } from '../routing/router-types.js';

/** Code of the process warning {@link warnFleetIgnored} emits when the router has no logger. */
export const FLEET_IGNORED_WARNING_CODE = 'VOXROUTE_FLEET_MESSAGE_IGNORED';

let emitted = false;

/**
 * Says that the fleet ignored a message or stored value it could not use (malformed, written by
 * another voxroute version, or by another app on the same key prefix): `what` names where it was
 * read and why, and never quotes it (it could hold anything). With a `logger`, one warning to it
 * (the caller calls this once per router); without one, `process.emitWarning` (code
 * `VOXROUTE_FLEET_MESSAGE_IGNORED`) once per process.
 */
export function warnFleetIgnored(what: string, logger: Logger | undefined): void {
  const message = `Fleet-shared health ignored ${what}; later ones are counted in stats().fleet.ignored`;
  if (logger) {
    logger.warn(message);
    return;
  }
  if (emitted) return;
  emitted = true;
  process.emitWarning(message, { code: FLEET_IGNORED_WARNING_CODE });
}
