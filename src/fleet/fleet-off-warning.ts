import type { Logger } from '../routing/router-types.js';

/** Code of the process warning {@link warnFleetOff} emits when the router has no logger. */
export const FLEET_OFF_WARNING_CODE = 'VOXROUTE_FLEET_HEALTH_OFF';

let emitted = false;

/**
 * Says that fleet-shared health is off because the store cannot be used at all (ioredis not
 * installed): `reason` has no secret in it. With a `logger`, one warning to it per router (the
 * caller calls this once per router); without one, `process.emitWarning` (code
 * `VOXROUTE_FLEET_HEALTH_OFF`, printed on stderr) once per process, so an app that listens to
 * neither `router.on('fleet')` nor a logger still learns that its `health` section does nothing,
 * and an app that makes many routers is told once.
 */
export function warnFleetOff(reason: string, logger: Logger | undefined): void {
  const message = `Fleet-shared health is off: ${reason}`;
  if (logger) {
    logger.warn(message);
    return;
  }
  if (emitted) return;
  emitted = true;
  process.emitWarning(message, { code: FLEET_OFF_WARNING_CODE });
}
