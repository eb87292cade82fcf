/** The few codes whose Whisper name is not their English display name in lower case. */
const WHISPER_NAMES: Readonly<Record<string, string>> = {
  my: 'myanmar',
  mi: 'maori',
  nn: 'nynorsk',
  tl: 'tagalog',
};

let names: Intl.DisplayNames | undefined;

/**
 * The language name OpenAI's `verbose_json` transcription gives for a request's `language`
 * (an ISO-639-1 code): Whisper's lower-case English name, `en` -> `english`, `de` -> `german`
 * (the OpenAPI spec's example answer says `"language": "english"`). A region is ignored
 * (`en-US` -> `english`); a value that names no language is returned as it was sent.
 */
export function whisperLanguageName(code: string): string {
  const primary = code.split(/[-_]/)[0]!.toLowerCase();
  const fixed = WHISPER_NAMES[primary];
  if (fixed) return fixed;
  try {
    names ??= new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
    const name = names.of(primary);
    return name === undefined ? code : name.toLowerCase();
  } catch {
    return code;
  }
}
