/**
 * How long a provider asked us to wait before the next request, in ms, from its response headers.
 *
 * - `retry-after-ms`: a number of milliseconds (OpenAI's extension; read first as the more precise);
 * - `retry-after`: either a number of seconds (`"120"`) or an HTTP-date
 *   (`"Wed, 21 Oct 2015 07:28:00 GMT"`), per RFC 9110 §10.2.3. A date is turned into a delay
 *   against the response's own `date` header when it has a valid one (RFC 9110 §6.6.1: the
 *   server's clock, so a server whose clock is minutes or hours off still gets the wait it
 *   meant), else against `nowMs`; a date in the past gives 0.
 *
 * Returns `undefined` when neither header is present or parses; never a negative number.
 *
 * @param headers Response headers with lower-case names.
 * @param nowMs Wall-clock time in ms since the epoch for HTTP-dates when the response has no valid
 *   `date` header. Default: `Date.now()`.
 */
export function parseRetryAfter(
  headers: Record<string, string>,
  nowMs: number = Date.now(),
): number | undefined {
  const ms = headers['retry-after-ms'];
  if (ms !== undefined) {
    const value = Number(ms.trim());
    if (ms.trim() !== '' && Number.isFinite(value) && value >= 0) return value;
  }
  const raw = headers['retry-after']?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Number(raw) * 1000;
  // Every HTTP-date form starts with a day name ("Sun, 06 Nov 1994 08:49:37 GMT").
  if (!/^[A-Za-z]{3}/.test(raw)) return undefined;
  const date = Date.parse(raw);
  if (Number.isNaN(date)) return undefined;
  const sent = headers.date?.trim();
  const serverNow = sent && /^[A-Za-z]{3}/.test(sent) ? Date.parse(sent) : Number.NaN;
  return Math.max(0, date - (Number.isNaN(serverNow) ? nowMs : serverNow));
}
