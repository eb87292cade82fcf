/**
 * What a language field takes, in words, for error messages: a request's `language` and a
 * provider config's `language` are checked by {@link isLanguageTag} and say this.
 */
export const LANGUAGE_TAG_EXPECTED = "a BCP 47 language tag of a known language, such as 'en' or 'en-US'";

/**
 * The one primary subtag a provider takes that is not a language of the registry: Deepgram's
 * `multi` (multilingual code-switching, docs/config.md kind `deepgram`). PROTOCOLS.md 3.2 lists
 * Deepgram's `language` query parameter (deepgram-js-sdk @ 1913abc `ConnectArgs`) but not its
 * values, and no other provider there documents `multi` or an equivalent value (Cartesia's STT
 * `language` enum lists only `en`, PROTOCOLS.md 1.6; OpenAI's transcription `language` is
 * optional, its absence meaning auto-detection, 2.4): a config takes it only on the kinds of
 * {@link MULTILINGUAL_KINDS}.
 */
const MULTILINGUAL = 'multi';

/**
 * The provider kinds whose `language` fields take {@link MULTILINGUAL}: `deepgram` (its
 * `stt.language`) and `sagemaker` (the endpoint and its codec are the user's own, so what it
 * takes is theirs to say).
 */
export const MULTILINGUAL_KINDS: readonly string[] = ['deepgram', 'sagemaker'];

/**
 * Why a config `language` of a kind outside {@link MULTILINGUAL_KINDS} may not be `multi` (any
 * case, with or without subtags after it): the message of its ConfigError.
 */
export const MULTILINGUAL_ELSEWHERE = `"${MULTILINGUAL}" (multilingual code-switching) is Deepgram's value, taken only by kinds ${MULTILINGUAL_KINDS.map((k) => `"${k}"`).join(' and ')}: set one language, or leave language out`;

/** True when the primary subtag of `value` (a string) is `multi`, in any case. */
export function isMultilingualTag(value: string): boolean {
  return (value.split('-', 1)[0] as string).toLowerCase() === MULTILINGUAL;
}

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
 * at `providers.<name>.<section>.language`); a config's `language` of a kind outside
 * {@link MULTILINGUAL_KINDS} is also not `multi` ({@link isMultilingualTag}).
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
  return primary === MULTILINGUAL || isRegisteredLanguage(primary);
}
