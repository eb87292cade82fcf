import { ConfigError, type ConfigIssue } from '../errors/config-error.js';
import { findJsonDuplicateKeys } from './json-duplicates.js';
import { quoteThrown } from './quote-thrown.js';
import { redactIssues } from './redact.js';
import { yamlKeyPlace } from './yaml-key-path.js';

/**
 * Parses the text of a `.json` config (a leading BOM is ignored). A key written twice in one
 * object is an error, where `JSON.parse` alone would silently keep the last value.
 *
 * @throws ConfigError (source `file`) saying where the JSON is invalid (line and column when
 *   the engine reports a position). The message never quotes the file's text: V8's own
 *   messages can include a snippet of it, which could hold a key.
 * @throws ConfigError (source `file`) with one issue per repeated key, at the repeated key's
 *   path (e.g. `providers.a.baseUrl`), with the message
 *   `duplicate key at line L, column C (first written at line L, column C): JSON keeps only the last value`
 *   (lines and columns from 1; path segments shaped like keys are redacted as in every
 *   ConfigError).
 */
export function parseJsonConfig(text: string, file: string): unknown {
  const source = stripBom(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch (error) {
    const raw = error instanceof Error ? error.message : '';
    const at = /^(.*?) in JSON at position (\d+)/.exec(raw);
    const message = at ? `invalid JSON: ${at[1]} at ${lineColumn(source, Number(at[2]))}` : 'invalid JSON';
    throw new ConfigError([{ path: [], message }], { source: file });
  }
  const duplicates = findJsonDuplicateKeys(source);
  if (duplicates.length > 0) {
    const issues: ConfigIssue[] = duplicates.map((duplicate) => ({
      path: duplicate.path,
      message: `duplicate key at ${lineColumn(source, duplicate.offset)} (first written at ${lineColumn(source, duplicate.firstOffset)}): JSON keeps only the last value`,
    }));
    throw new ConfigError(redactIssues(issues, parsed), { source: file });
  }
  return parsed;
}

/**
 * Parses the text of a `.yaml`/`.yml` config with the `yaml` package (YAML 1.2, one
 * document, unique keys, merge keys `<<: *anchor` and `<<: [*a, *b]` resolved, keys written
 * in the mapping winning over merged ones), imported only now so that importing voxroute
 * stays fast.
 *
 * @throws ConfigError (source `file`) naming the first YAML error and its line and column,
 *   without the excerpt of the file the `yaml` package would print (it could hold a key).
 * @throws ConfigError (source `file`) with one issue per repeated key, at the repeated key's
 *   path, with the message of a repeated JSON key (see parseJsonConfig).
 * @throws ConfigError (source `file`) at the root when a merge key's value is not a mapping
 *   or a list of mappings: `invalid YAML: Merge sources must be maps or map aliases`.
 */
export async function parseYamlConfig(text: string, file: string): Promise<unknown> {
  const yaml = await import('yaml');
  const source = stripBom(text);
  const doc = yaml.parseDocument(source, { prettyErrors: false, uniqueKeys: true, merge: true });
  const duplicates: ConfigIssue[] = [];
  for (const error of doc.errors) {
    const place = error.code === 'DUPLICATE_KEY' ? yamlKeyPlace(yaml, doc, error.pos[0]) : undefined;
    if (!place) continue;
    duplicates.push({
      path: place.path,
      message: `duplicate key at ${lineColumn(source, error.pos[0])} (first written at ${lineColumn(source, place.firstOffset)}): YAML keys must be unique`,
    });
  }
  const error = doc.errors.find((e) => e.code !== 'DUPLICATE_KEY' || !yamlKeyPlace(yaml, doc, e.pos[0]));
  if (error) {
    const at = lineColumn(source, error.pos[0]);
    throw new ConfigError([{ path: [], message: `invalid YAML: ${error.message} at ${at}` }], {
      source: file,
    });
  }
  let value: unknown;
  try {
    value = doc.toJS();
  } catch (cause) {
    // The `yaml` package checks merge sources (and alias counts) only here.
    const message = `invalid YAML: ${quoteThrown(cause, { name: 'never' }).text}`;
    throw new ConfigError([{ path: [], message }], { source: file });
  }
  if (duplicates.length > 0) throw new ConfigError(redactIssues(duplicates, value), { source: file });
  return value;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** "line L, column C" (both from 1) of a 0-based character offset in `text`. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}
