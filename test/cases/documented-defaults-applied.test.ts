/**
 * Every default docs/config.md gives as a value (a backticked literal in a table's Default
 * column: `10000`, `'latency'`, `true`, `https://api.anthropic.com`) is what parseConfig puts
 * in the resolved config when the field is left out. The tables are read from the page, so a
 * default documented later is checked too.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/index.js';

const page = readFileSync(new URL('../../docs/config.md', import.meta.url), 'utf8');

/** [section heading, field, documented default] of every table row whose default is one literal. */
function documentedDefaults(): Array<[string, string, string]> {
  const rows: Array<[string, string, string]> = [];
  let heading = '';
  let header: string[] | undefined;
  for (const line of page.split('\n')) {
    if (line.startsWith('#')) {
      heading = line.replace(/^#+\s*/, '');
      header = undefined;
      continue;
    }
    if (!line.startsWith('|')) {
      header = undefined;
      continue;
    }
    const cells = line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((c) => c.trim());
    if (!header) {
      header = cells;
      continue;
    }
    if (/^[-: ]+$/.test(cells.join(''))) continue;
    const at = header.findIndex((name) => name.toLowerCase() === 'default');
    const value = at >= 0 ? cells[at] : undefined;
    if (!value || !/^`[^`]+`$/.test(value)) continue;
    for (const field of cells[0]!.matchAll(/`([^`]+)`/g)) rows.push([heading, field[1]!, value.slice(1, -1)]);
  }
  return rows;
}

/** A documented literal as a value: a number, a quoted string, true/false, `{}`, or a bare URL. */
function literal(text: string): unknown {
  if (text === '{}') return {};
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (/^'.*'$/.test(text)) return text.slice(1, -1);
  return text;
}

const voices = { voices: { agent: 'v' } };
/** Per table: a minimal config leaving every defaulted field out, and where the table's fields live in it. */
const sections: Record<string, { config: unknown; at: (c: ReturnType<typeof parseConfig>) => unknown }> = {
  'Kind `openai` and `openai-compatible`': {
    config: {
      providers: {
        p: {
          kind: 'openai-compatible',
          baseUrl: 'http://127.0.0.1:9/v1',
          chat: { models: { fast: 'm' } },
          tts: voices,
          stt: { model: 'w' },
        },
      },
      routes: {},
    },
    at: (c) => c.providers.p,
  },
  '`routes`': {
    config: {
      providers: {
        p: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', chat: { models: { fast: 'm' } } },
      },
      routes: { chat: { providers: ['p'] } },
    },
    at: (c) => c.routes.chat,
  },
  '`health`': {
    config: {
      providers: {
        p: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', chat: { models: { fast: 'm' } } },
      },
      routes: {},
      health: { store: 'redis', url: 'redis://127.0.0.1:6379' },
    },
    at: (c) => c.health,
  },
  'Provider kind `anthropic`': {
    config: {
      providers: { p: { kind: 'anthropic', apiKey: 'k', chat: { models: { fast: 'm' } } } },
      routes: {},
    },
    at: (c) => c.providers.p,
  },
  'Provider kind `elevenlabs`': {
    config: { providers: { p: { kind: 'elevenlabs', apiKey: 'k', tts: voices } }, routes: {} },
    at: (c) => c.providers.p,
  },
  'Provider kind `deepgram`': {
    config: { providers: { p: { kind: 'deepgram', apiKey: 'k', stt: {} } }, routes: {} },
    at: (c) => c.providers.p,
  },
  'Provider kind `cartesia`': {
    config: { providers: { p: { kind: 'cartesia', apiKey: 'k', tts: voices, stt: {} } }, routes: {} },
    at: (c) => c.providers.p,
  },
  'Provider kind `sagemaker`': {
    config: {
      providers: {
        p: {
          kind: 'sagemaker',
          region: 'us-east-1',
          endpointName: 'e',
          chat: { models: { fast: 'm' } },
          tts: { payload: 'raw-pcm', ...voices },
          stt: { payload: 'raw-pcm' },
        },
      },
      routes: {},
    },
    at: (c) => c.providers.p,
  },
};

const get = (value: unknown, path: string) =>
  path.split('.').reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], value);

describe('docs/config.md defaults are applied by parseConfig', () => {
  const rows = documentedDefaults();

  it('reads the documented defaults of every table (none is skipped unnoticed)', () => {
    expect(new Set(rows.map(([heading]) => heading))).toEqual(new Set(Object.keys(sections)));
    expect(rows.length).toBeGreaterThanOrEqual(38);
  });

  it.each(rows)('%s: %s defaults to %s', (heading, field, documented) => {
    const section = sections[heading]!;
    const resolved = section.at(parseConfig(section.config));
    expect(get(resolved, field)).toEqual(literal(documented));
  });
});
