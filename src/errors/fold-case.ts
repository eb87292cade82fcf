/** An upper- or title-case letter (any script). */
const UPPER = /[\p{Lu}\p{Lt}]/gu;

/**
 * `text` with every upper-case letter in lower case, where that keeps the text's length (ASCII
 * always; `İ`, whose lower case is two characters, is kept as it is), so that an index into the
 * result is the same index into `text`. The redactor matches secrets on folded text: a server
 * that echoes a mixed-case key in lower (or upper) case must not get it past redaction.
 */
export function foldCase(text: string): string {
  return text.replace(UPPER, (letter) => {
    const lower = letter.toLowerCase();
    return lower.length === letter.length ? lower : letter;
  });
}
