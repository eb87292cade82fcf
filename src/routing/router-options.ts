import { firstUnknownKey } from '../config/did-you-mean.js';
import { valueShape } from '../internal/value-shape.js';
import type { RouterOptions } from './router-types.js';

/** Every key of RouterOptions (the compiler checks that none is missing or extra). */
const ROUTER_OPTION_KEYS = Object.keys({
  fetch: true,
  WebSocket: true,
  ca: true,
  clock: true,
  logger: true,
  random: true,
  env: true,
  resampleOffload: true,
} satisfies Record<keyof RouterOptions, true>);

/**
 * Checks the options given to createRouter as strictly as the config: an object whose keys are
 * all RouterOptions keys (an `undefined` value counts as unset).
 * @throws TypeError naming the first unknown key, with a did-you-mean when one is close
 *   (`fetchh` -> `fetch`), or saying the options are not an object; TypeError naming `fetch`,
 *   `WebSocket` or `random` when it is not a function, `clock` when it lacks one of the
 *   functions `now`, `setTimeout`, `clearTimeout`, `env` when it is not an object, and
 *   `resampleOffload` when it is not false nor an integer from 0.
 */
export function checkRouterOptions(options: unknown): asserts options is RouterOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new TypeError(
      `createRouter: options must be an object (RouterOptions), got ${valueShape(options)}`,
    );
  const unknown = firstUnknownKey(options, ROUTER_OPTION_KEYS);
  if (unknown !== undefined) {
    const { key, near } = unknown;
    throw new TypeError(
      `createRouter: unknown option '${key}'${near ? ` (did you mean '${near}'?)` : ''}; the options are ${ROUTER_OPTION_KEYS.join(', ')}`,
    );
  }
  const given = options as Record<string, unknown>;
  for (const key of ['fetch', 'WebSocket', 'random'] as const) {
    const value = given[key];
    if (value !== undefined && typeof value !== 'function')
      throw new TypeError(`createRouter: options.${key} must be a function, got ${valueShape(value)}`);
  }
  const clock = given.clock;
  if (clock !== undefined) {
    const bad = (['now', 'setTimeout', 'clearTimeout'] as const).filter(
      (method) => typeof (clock as Record<string, unknown> | null)?.[method] !== 'function',
    );
    if (typeof clock !== 'object' || clock === null || bad.length > 0)
      throw new TypeError(
        `createRouter: options.clock must be an object with the functions now, setTimeout and clearTimeout (Clock), got ${
          typeof clock === 'object' && clock !== null ? `one without ${bad.join(', ')}` : valueShape(clock)
        }`,
      );
  }
  const env = given.env;
  if (env !== undefined && (typeof env !== 'object' || env === null || Array.isArray(env)))
    throw new TypeError(
      `createRouter: options.env must be an object of environment variables, got ${valueShape(env)}`,
    );
  const offload = (options as RouterOptions).resampleOffload;
  if (offload !== undefined && offload !== false && !(Number.isSafeInteger(offload) && offload >= 0))
    throw new TypeError(
      `createRouter: options.resampleOffload must be false or an integer from 0 (streams), got ${typeof offload === 'number' ? offload : valueShape(offload)}`,
    );
}
