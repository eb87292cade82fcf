/**
 * What a language field takes, in words, for error messages: a request's `language` and a
 * provider config's `language` are checked by {@link isLanguageTag} and say this.
 */
export const LANGUAGE_TAG_EXPECTED = "a BCP 47 language tag such as 'en' or 'en-US'";

/**
 * True when `value` is a well-formed BCP 47 language tag (`Intl.getCanonicalLocales` accepts
 * it): an ISO 639-1 code such as `en`, a tag with a region or script such as `en-US` or
 * `zh-Hant-TW`, or a 5-8 letter subtag such as Deepgram's `multi`. Punctuation, spaces,
 * underscores and path segments (`english!!`, `en_US`, `../x`) are not: the value is sent to the
 * provider as it is (a form field, a query parameter, a JSON field), so only a tag gets there.
 * One rule for requests (`RequestError` field `language`) and configs (`ConfigError` at
 * `providers.<name>.<section>.language`).
 */
export function isLanguageTag(value: unknown): value is string {
  if (typeof value !== 'string' || value === '') return false;
  try {
    Intl.getCanonicalLocales(value);
    return true;
  } catch {
    return false;
  }
}
