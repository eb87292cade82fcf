/** An HTTP field name: an RFC 9110 token (section 5.1), one or more of these characters. */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** HTTP/2 and HTTP/3 pseudo-header names (RFC 9113 8.3, RFC 8441 4): the client derives them from the request. */
const PSEUDO_HEADERS = new Set([':method', ':scheme', ':authority', ':path', ':protocol', ':status']);

const HOP_BY_HOP =
  'is a hop-by-hop header (RFC 9110 7.6.1): the HTTP client manages the connection itself, so it cannot be set here';

/**
 * Header names (lower case) that a provider's `headers` may not hold, with why: the HTTP
 * client sets them itself, or refuses a request that carries them. undici refuses
 * `transfer-encoding`, `keep-alive` and `upgrade` (`UND_ERR_INVALID_ARG`) and `expect`
 * (`UND_ERR_NOT_SUPPORTED`), and fails a request whose `content-length` differs from its body
 * (`UND_ERR_REQ_CONTENT_LENGTH_MISMATCH`); `connection: close` would drop the warm connection
 * after each request; `host` would send a request for another host than `baseUrl`'s (and a
 * fetch drops it); a WebSocket client writes its handshake's `sec-websocket-*` headers itself.
 */
const FORBIDDEN: ReadonlyMap<string, string> = new Map([
  ['connection', HOP_BY_HOP],
  ['keep-alive', HOP_BY_HOP],
  ['proxy-connection', HOP_BY_HOP],
  ['te', HOP_BY_HOP],
  ['transfer-encoding', HOP_BY_HOP],
  ['upgrade', HOP_BY_HOP],
  ['content-length', 'is set by the HTTP client from each request body, so it cannot be set here'],
  ['host', 'is set by the HTTP client from baseUrl, so it cannot be set here: put the host in baseUrl'],
  ['expect', 'is not supported by the HTTP client (it sends each request body at once)'],
]);

const WEBSOCKET_HANDSHAKE = 'is set by the WebSocket client on each handshake, so it cannot be set here';

/** Why a name that is no HTTP field name cannot be a header's. */
export const INVALID_HEADER_NAME =
  "must be an HTTP header name: letters, digits and ! # $ % & ' * + - . ^ _ ` | ~ only (no space, colon or other character)";

/**
 * Why `name` cannot be the name of a header in a provider's `headers`, or undefined when it
 * can: not an HTTP field name (RFC 9110 5.1); an HTTP/2 pseudo-header (`:authority`); a
 * hop-by-hop header (`Connection`, `Keep-Alive`, `Proxy-Connection`, `TE`,
 * `Transfer-Encoding`, `Upgrade`); a header the HTTP client sets (`Content-Length`, `Host`,
 * `Sec-WebSocket-*`) or does not support (`Expect`). Compared case-insensitively. The message
 * says why, for an issue at `providers.<name>.headers.<header>`; it never quotes a value.
 */
export function headerNameProblem(name: string): string | undefined {
  if (!HEADER_NAME.test(name)) {
    return isPseudoHeaderName(name)
      ? 'is an HTTP/2 pseudo-header: the HTTP client sets it from the request, so it cannot be set here'
      : INVALID_HEADER_NAME;
  }
  const lower = name.toLowerCase();
  return FORBIDDEN.get(lower) ?? (lower.startsWith('sec-websocket-') ? WEBSOCKET_HANDSHAKE : undefined);
}

/**
 * A JSON Schema pattern (an ECMAScript regex, which has no case-insensitive flag there) matching
 * exactly the names of `names` in any case, and, given `prefixes`, any name starting with one:
 * `caselessNamesPattern(['te'])` is `^(?:[Tt][Ee])$`.
 */
export function caselessNamesPattern(names: readonly string[], prefixes: readonly string[] = []): string {
  const caseless = (text: string) =>
    [...text]
      .map((c) =>
        c.toLowerCase() !== c.toUpperCase()
          ? `[${c.toUpperCase()}${c.toLowerCase()}]`
          : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('');
  const whole = names.map(caseless);
  const starts = prefixes.map((prefix) => `${caseless(prefix)}.*`);
  return `^(?:${[...whole, ...starts].join('|')})$`;
}

/**
 * The names {@link headerNameProblem} refuses among HTTP field names, as a JSON Schema pattern
 * (for a `headers` map's `propertyNames`).
 */
export function forbiddenHeaderNamePattern(): string {
  return caselessNamesPattern([...FORBIDDEN.keys()], ['sec-websocket-']);
}

/**
 * The header names of `names` that repeat an earlier one up to case (HTTP field names are
 * case-insensitive, RFC 9110 5.1: `X-Foo` and `x-foo` are one header, which a request would send
 * twice or with one value silently replacing the other), each with the earlier name it repeats,
 * in the order given. Empty when every name is distinct.
 *
 * @example
 * ```ts
 * caseDuplicateHeaders(['X-Foo', 'Accept', 'x-foo']); // [{ name: 'x-foo', first: 'X-Foo' }]
 * ```
 */
export function caseDuplicateHeaders(names: Iterable<string>): Array<{ name: string; first: string }> {
  const seen = new Map<string, string>();
  const repeats: Array<{ name: string; first: string }> = [];
  for (const name of names) {
    const lower = name.toLowerCase();
    const first = seen.get(lower);
    if (first === undefined) seen.set(lower, name);
    else repeats.push({ name, first });
  }
  return repeats;
}

/** Why a header name repeats `first` up to case: the message of its issue at `headers.<name>`. */
export function caseDuplicateHeaderMessage(first: string): string {
  return `is the same header as '${first}' (header names are case-insensitive): keep one of them`;
}

/** True for an HTTP/2 pseudo-header name (`:method`, `:scheme`, `:authority`, `:path`, `:protocol`, `:status`), in any case. */
export function isPseudoHeaderName(name: string): boolean {
  return PSEUDO_HEADERS.has(name.toLowerCase());
}
