import type { Dispatcher } from 'undici';
import { isInformationalStatus } from './informational.js';
import { type SentClose, sentClose } from './websocket-sent-close.js';

/** What the opening handshake's HTTP exchange showed, as far as undici let us see it. */
export interface HandshakeRecord {
  /** HTTP status of the handshake response (101 when it upgraded; e.g. 401 when refused). */
  status?: number;
  /** Response headers of a refused handshake, lower-case names (first value of each). */
  headers?: Record<string, string>;
  /** The network error that failed the handshake before any response (e.g. ECONNREFUSED). */
  error?: unknown;
  /** The upgraded TCP/TLS socket, so that a close handshake the server never answers can be cut. */
  socket?: { destroy(): void };
  /**
   * The first close frame the client wrote on the upgraded socket: undici fails a connection
   * itself (1009 for a message past its `maxPayloadSize`, 1002 for a malformed frame, 1007 for
   * invalid UTF-8) but reports only a close 1006 to the WebSocket's listeners.
   */
  sentClose?: SentClose;
}

type ResponseStart = (
  controller: { abort(reason: unknown): void },
  status: number,
  headers: unknown,
  ...rest: unknown[]
) => unknown;
type ResponseError = (controller: unknown, error: unknown) => unknown;
type Connect = (abort: (reason?: unknown) => void, ...rest: unknown[]) => unknown;
type Headers1 = (status: number, rawHeaders: unknown, ...rest: unknown[]) => unknown;
type OnError = (error: unknown) => unknown;
type RequestUpgrade = (controller: unknown, status: number, headers: unknown, socket: unknown) => unknown;
type Upgrade = (status: number, rawHeaders: unknown, socket: unknown) => unknown;

/**
 * A dispatcher over `base` that records the handshake of one WebSocket connection in `record`:
 * undici's WebSocket reports a refused upgrade only as an abnormal close (1006) and hides the
 * HTTP status, so the status (and headers, for `Retry-After`) are taken from the dispatch
 * handler. A refused handshake (status other than 101) is aborted at its headers, which also
 * stops undici from sending the handshake a second time after a 401 (its fetch re-runs a 401
 * once when credentials may apply). The upgraded socket is kept, so that a close handshake the
 * server never answers can be cut (undici has no close timeout). Returns `base` unchanged when
 * it cannot be composed.
 */
export function recordingDispatcher(base: Dispatcher, record: HandshakeRecord): Dispatcher {
  if (typeof base.compose !== 'function') return base;
  return base.compose((dispatch) => (options, handler) => {
    const target = handler as Record<string, unknown>;
    const onResponseStart = target.onResponseStart as ResponseStart | undefined;
    if (typeof onResponseStart === 'function') {
      target.onResponseStart = function (this: unknown, controller, status, headers, ...rest) {
        // A 1xx before the 101 (103 Early Hints) is no answer to the handshake yet.
        if (isInformationalStatus(status))
          return onResponseStart.call(this, controller, status, headers, ...rest);
        record.status = status;
        if (status !== 101 && options.upgrade) {
          record.headers = headerRecord(headers);
          controller.abort(new Error(`WebSocket handshake refused with HTTP ${status}`));
          return undefined;
        }
        return onResponseStart.call(this, controller, status, headers, ...rest);
      } satisfies ResponseStart;
    }
    const onResponseError = target.onResponseError as ResponseError | undefined;
    if (typeof onResponseError === 'function') {
      target.onResponseError = function (this: unknown, controller, error) {
        if (record.status === undefined) record.error = error;
        return onResponseError.call(this, controller, error);
      } satisfies ResponseError;
    }
    const onRequestUpgrade = target.onRequestUpgrade as RequestUpgrade | undefined;
    if (typeof onRequestUpgrade === 'function') {
      target.onRequestUpgrade = function (this: unknown, controller, status, headers, socket) {
        keepSocket(record, socket);
        return onRequestUpgrade.call(this, controller, status, headers, socket);
      } satisfies RequestUpgrade;
    }
    const onUpgrade = target.onUpgrade as Upgrade | undefined;
    if (typeof onUpgrade === 'function') {
      target.onUpgrade = function (this: unknown, status, rawHeaders, socket) {
        keepSocket(record, socket);
        return onUpgrade.call(this, status, rawHeaders, socket);
      } satisfies Upgrade;
    }
    // The legacy handler API (onConnect / onHeaders / onError), which a dispatcher of another
    // undici copy (e.g. the one bundled with Node, when it set the global dispatcher) calls.
    let abort: ((reason?: unknown) => void) | undefined;
    const onConnect = target.onConnect as Connect | undefined;
    if (typeof onConnect === 'function') {
      target.onConnect = function (this: unknown, abortRequest, ...rest) {
        abort = abortRequest;
        return onConnect.call(this, abortRequest, ...rest);
      } satisfies Connect;
    }
    const onHeaders = target.onHeaders as Headers1 | undefined;
    if (typeof onHeaders === 'function') {
      target.onHeaders = function (this: unknown, status, rawHeaders, ...rest) {
        if (isInformationalStatus(status)) return onHeaders.call(this, status, rawHeaders, ...rest);
        record.status = status;
        if (status !== 101 && options.upgrade && abort) {
          record.headers = rawHeaderRecord(rawHeaders);
          abort(new Error(`WebSocket handshake refused with HTTP ${status}`));
          return false;
        }
        return onHeaders.call(this, status, rawHeaders, ...rest);
      } satisfies Headers1;
    }
    const onError = target.onError as OnError | undefined;
    if (typeof onError === 'function') {
      target.onError = function (this: unknown, error) {
        if (record.status === undefined) record.error = error;
        return onError.call(this, error);
      } satisfies OnError;
    }
    return dispatch(options, handler);
  });
}

function keepSocket(record: HandshakeRecord, socket: unknown): void {
  if (typeof (socket as { destroy?: unknown } | null)?.destroy === 'function')
    record.socket = socket as { destroy(): void };
  const writable = socket as { write?: (chunk: unknown, ...rest: unknown[]) => boolean } | null;
  const write = writable?.write;
  if (typeof write !== 'function') return;
  // undici writes each close frame whole, in one write (its frame sender's createFrame).
  writable!.write = function (this: unknown, chunk: unknown, ...rest: unknown[]): boolean {
    if (record.sentClose === undefined) record.sentClose = sentClose(chunk);
    return write.call(this, chunk, ...rest);
  };
}

function rawHeaderRecord(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(raw)) return out;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = String(raw[i]).toLowerCase();
    const value = raw[i + 1];
    if (!(name in out)) out[name] = String(Array.isArray(value) ? value[0] : value);
  }
  return out;
}

function headerRecord(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof headers !== 'object' || headers === null) return out;
  for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined && first !== null) out[name.toLowerCase()] = String(first);
  }
  return out;
}
