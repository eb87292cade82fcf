/**
 * What a language field takes, in words, for error messages: a request's `language` and a
 * provider config's `language` are checked by {@link isLanguageTag} and say this.
 */
export const LANGUAGE_TAG_EXPECTED = "a BCP 47 language tag of a known language, such as 'en' or 'en-US'";

/**
 * Primary subtags a provider documents that are not languages of the registry: Deepgram's
 * `multi` (multilingual code-switching, PROTOCOLS.md 3; docs/config.md, kind `deepgram`).
 */
const PROVIDER_LANGUAGES: ReadonlySet<string> = new Set(['multi']);

/** Made on first use and kept: building one costs about 5 us, a lookup about 1.5 us. */
let languageNames: Intl.DisplayNames | undefined;

/**
 * Primary subtags already found registered. Bounded by the registry (only accepted subtags are
 * added, never a caller's unknown one), so a repeated `language` skips the lookup.
 */
const known = new Set<string>();

/** True when ICU names the language: `fallback: 'none'` gives undefined for an unknown one. */
function isRegisteredLanguage(primary: string): boolean {
  if (known.has(primary)) return true;
  languageNames ??= new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
  let name: string | undefined;
  try {
    name = languageNames.of(primary);
  } catch {
    return false;
  }
  if (name === undefined) return false;
  known.add(primary);
  return true;
}

/**
 * True when `value` is a well-formed BCP 47 language tag (`Intl.getCanonicalLocales` accepts it)
 * whose primary language subtag is a registered language (ICU's language names, the data Node
 * ships on 20, 22 and 24, know it): an ISO 639-1 code such as `en`, an ISO 639-2/3 code such as
 * `yue` or `fil`, a tag with a region or script such as `en-US` or `zh-Hant-TW`, or Deepgram's
 * `multi`. Not: punctuation, spaces, underscores and path segments (`english!!`, `en_US`,
 * `../x`), a language name (`english`, `English`), an unassigned or private-use code (`zz`,
 * `qaa`), `und`: the value is sent to the provider as it is (a form field, a query parameter, a
 * JSON field), and a provider answers an unknown language with a 400 at run time, or not at all.
 * Only the primary subtag is checked against the registry (a region or script is passed on as
 * written). One rule for requests (`RequestError` field `language`) and configs (`ConfigError`
 * at `providers.<name>.<section>.language`).
 */
export function isLanguageTag(value: unknown): value is string {
  if (typeof value !== 'string' || value === '') return false;
  let canonical: string | undefined;
  try {
    canonical = Intl.getCanonicalLocales(value)[0];
  } catch {
    return false;
  }
  if (canonical === undefined) return false;
  const primary = canonical.split('-', 1)[0] as string;
  return PROVIDER_LANGUAGES.has(primary) || isRegisteredLanguage(primary);
}
