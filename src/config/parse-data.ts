import { ConfigError } from '../errors/config-error.js';

/**
 * Parses the text of a `.json` config (a leading BOM is ignored).
 *
 * @throws ConfigError (source `file`) saying where the JSON is invalid (line and column when
 *   the engine reports a position). The message never quotes the file's text: V8's own
 *   messages can include a snippet of it, which could hold a key.
 */
export function parseJsonConfig(text: string, file: string): unknown {
  const source = stripBom(text);
  try {
    return JSON.parse(source);
  } catch (error) {
    const raw = error instanceof Error ? error.message : '';
    const at = /^(.*?) in JSON at position (\d+)/.exec(raw);
    const message = at ? `invalid JSON: ${at[1]} at ${lineColumn(source, Number(at[2]))}` : 'invalid JSON';
    throw new ConfigError([{ path: [], message }], { source: file });
  }
}

/**
 * Parses the text of a `.yaml`/`.yml` config with the `yaml` package (YAML 1.2, one
 * document, unique keys), imported only now so that importing voxroute stays fast.
 *
 * @throws ConfigError (source `file`) naming the first YAML error and its line and column,
 *   without the excerpt of the file the `yaml` package would print (it could hold a key).
 */
export async function parseYamlConfig(text: string, file: string): Promise<unknown> {
  const { parseDocument } = await import('yaml');
  const doc = parseDocument(stripBom(text), { prettyErrors: false, uniqueKeys: true });
  const error = doc.errors[0];
  if (error) {
    const at = lineColumn(text, error.pos[0]);
    throw new ConfigError([{ path: [], message: `invalid YAML: ${error.message} at ${at}` }], {
      source: file,
    });
  }
  return doc.toJS();
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
