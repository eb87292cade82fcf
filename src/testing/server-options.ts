import { firstUnknownKey } from '../config/did-you-mean.js';
import { valueShape } from '../internal/value-shape.js';
import type { MockServerOptions } from './mock-server.js';
import { mockOptionError } from './reply-checks.js';

const SERVER_OPTION_KEYS = Object.keys({
  provider: true,
  port: true,
  host: true,
  tls: true,
} satisfies Record<keyof MockServerOptions, true>);

const hasHandle = (value: unknown): boolean =>
  typeof (value as { handle?: unknown } | null)?.handle === 'function';

/**
 * Checks the options of `startMockServer` before anything starts: an object, known keys (with a
 * did-you-mean), `provider` a mock (an object with `handle`), `port` a whole number from 0 to
 * 65535, `host` a string, `tls` a boolean. A mock passed as the options themselves
 * (`startMockServer(mock)`) is named as such.
 * @throws TypeError `startMockServer: options.<path>: <what is wrong>`.
 */
export function checkServerOptions(options: unknown): void {
  const fail = (path: string, problem: string): never => {
    throw mockOptionError(`startMockServer: ${path}`, problem);
  };
  if (hasHandle(options))
    fail(
      'options',
      'got a mock provider itself: pass it as the provider option, startMockServer({ provider: mock })',
    );
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    fail('options', `expected an object ({ provider, port?, host?, tls? }), got ${valueShape(options)}`);
  const given = options as Record<string, unknown>;
  const unknown = firstUnknownKey(given, SERVER_OPTION_KEYS);
  if (unknown !== undefined) {
    const { near } = unknown;
    fail(
      `options.${unknown.key}`,
      `unknown option${near ? ` (did you mean '${near}'?)` : ''}; the options are ${SERVER_OPTION_KEYS.join(', ')}`,
    );
  }
  if (!hasHandle(given.provider))
    fail(
      'options.provider',
      `expected a mock provider (e.g. createOpenAiCompatibleMock()), got ${valueShape(given.provider)}`,
    );
  const { port } = given;
  if (port !== undefined && (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535))
    fail(
      'options.port',
      `expected a whole number from 0 to 65535, got ${typeof port === 'number' ? port : valueShape(port)}`,
    );
  if (given.host !== undefined && typeof given.host !== 'string')
    fail('options.host', `expected a string, got ${valueShape(given.host)}`);
  if (given.tls !== undefined && typeof given.tls !== 'boolean')
    fail('options.tls', `expected a boolean, got ${valueShape(given.tls)}`);
}
