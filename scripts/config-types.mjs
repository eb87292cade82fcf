// Generates src/config/config-types.ts, the config types users write (RouterConfig, RouteConfig,
// ProviderConfig and one type per provider kind) and the resolved provider types parseConfig
// gives (<Kind>ResolvedConfig, their union ResolvedProviderConfigOfKind), from the zod schemas: each field's doc comment
// is its schema's description (the text of voxroute/schema.json), so an editor shows it on hover
// in a `defineConfig({ ... })`, also from the built .d.ts (a `z.input<...>` type loses the
// comments there). Run it after changing a config schema:
//
//   node scripts/config-types.mjs           writes the file
//   node scripts/config-types.mjs --check   exits 1 when the file is out of date (a test runs this)
//
// The schemas are read from src/ through jiti (as scripts/run-ts.mjs runs TypeScript); the output is
// formatted by biome. test/config/config-types.test.ts checks that each generated type equals
// the schema's input type (z.input, arrays readonly).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createJiti } from 'jiti';

const target = 'src/config/config-types.ts';
const root = fileURLToPath(new URL('..', import.meta.url));

const jiti = createJiti(import.meta.url);
const { routerConfigSchema } = await jiti.import('../src/config/schema.ts');
const { routeSchema } = await jiti.import('../src/config/route.ts');
const { providerSchema } = await jiti.import('../src/config/provider-schema.ts');
const { envRefSchema } = await jiti.import('../src/config-fields/secret.ts');

/** The type name of each provider kind's config; a new kind must be added here. */
const KIND_NAMES = {
  openai: 'OpenAIProviderConfig',
  'openai-compatible': 'OpenAICompatibleProviderConfig',
  anthropic: 'AnthropicProviderConfig',
  cartesia: 'CartesiaProviderConfig',
  deepgram: 'DeepgramProviderConfig',
  elevenlabs: 'ElevenLabsProviderConfig',
  sagemaker: 'SageMakerProviderConfig',
};

/** The named types, in output order: each schema met again inside another is written by its name. */
const named = [
  {
    name: 'RouterConfig',
    schema: routerConfigSchema(),
    doc: [
      'The router config as a user writes it (`voxroute.config.ts`, `.yaml`, `.json`): the input',
      'side of the schema, so fields with defaults are optional and secrets may be',
      "`{ env: 'NAME' }`. Its arrays (`routes.*.providers`, ElevenLabs `chunkLengthSchedule`) are",
      "readonly, so a config written `as const` is accepted. Each field's doc is its description in",
      'the JSON Schema (voxroute/schema.json); docs/config.md has the full reference.',
    ],
  },
  {
    name: 'RouteConfig',
    schema: routeSchema(),
    doc: ['One route as a user writes it. `providers` is a readonly array (so `as const` is accepted).'],
  },
  {
    name: 'ProviderConfig',
    schema: providerSchema(),
    doc: ['One provider as a user writes it; a union discriminated by `kind`. Arrays are readonly.'],
  },
  ...providerSchema()._zod.def.options.map((schema) => {
    const kind = schema._zod.def.shape.kind._zod.def.values[0];
    const name = KIND_NAMES[kind];
    if (name === undefined)
      throw new Error(`scripts/config-types.mjs: name the type of provider kind "${kind}"`);
    return {
      name,
      schema,
      doc: [`A provider of kind \`${kind}\` as a user writes it. ${schema.description}`],
    };
  }),
  {
    name: 'EnvSecretInput',
    schema: envRefSchema(),
    doc: [`${envRefSchema().description} A secret field takes a string or this.`],
  },
];
const names = new Map(named.map(({ name, schema }) => [schema, name]));

/**
 * The resolved provider types (what parseConfig gives): the output side of each kind's schema
 * with every secret a string, i.e. ResolveSecrets<z.output<...>> written out with the same doc
 * comments. Fields with a default are required; the only transforms in the config schemas make
 * an EnvSecretRef (a secret or URL read from the environment), which resolves to a string.
 */
const KIND_NAMES_RESOLVED = Object.fromEntries(
  Object.entries(KIND_NAMES).map(([kind, name]) => [kind, name.replace(/ProviderConfig$/, 'ResolvedConfig')]),
);
const resolvedKinds = providerSchema()._zod.def.options.map((schema) => {
  const kind = schema._zod.def.shape.kind._zod.def.values[0];
  return {
    name: KIND_NAMES_RESOLVED[kind],
    schema,
    doc: [
      `A provider of kind \`${kind}\` after parsing: defaults applied, every secret a string. ${schema.description}`,
    ],
  };
});
const resolvedNames = new Map(resolvedKinds.map(({ name, schema }) => [schema, name]));

/** 'input': the types users write; 'output': the resolved types. Set while each type is written. */
let mode = 'input';

/** A doc comment of `lines` at `indent`. */
function comment(lines, indent) {
  const text = lines.map((line) => line.replaceAll('*/', '*\\/'));
  if (text.length === 1 && text[0].length + indent.length + 7 <= 110) return `${indent}/** ${text[0]} */\n`;
  return `${indent}/**\n${text.map((line) => `${indent} * ${line}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

/** The description of a field: on its schema or on the schema it wraps (`.optional()`, `.default()`). */
function description(schema) {
  for (let s = schema; s !== undefined; ) {
    if (s.description !== undefined) return s.description;
    const def = s._zod.def;
    s = def.type === 'pipe' ? def.in : def.innerType;
  }
  return undefined;
}

function literal(value) {
  return typeof value === 'string'
    ? `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`
    : String(value);
}

/** The TypeScript type of what `schema` accepts (its input), objects written at `indent`. */
function typeOf(schema, indent, path) {
  const name = (mode === 'input' ? names : resolvedNames).get(schema);
  if (name !== undefined) return name;
  return structure(schema, indent, path);
}

function structure(schema, indent, path) {
  const def = schema._zod.def;
  switch (def.type) {
    case 'string':
    case 'number':
    case 'boolean':
      return def.type;
    case 'literal':
      return def.values.map(literal).join(' | ');
    case 'enum':
      return Object.values(def.entries).map(literal).join(' | ');
    case 'union':
      return [...new Set(def.options.map((option) => typeOf(option, indent, path)))].join(' | ');
    case 'optional':
      return `${typeOf(def.innerType, indent, path)} | undefined`;
    case 'default':
    case 'prefault':
      if (mode === 'output') return typeOf(def.innerType, indent, path);
      return `${typeOf(def.innerType, indent, path)} | undefined`;
    case 'pipe':
      // Output: a transform's result is an EnvSecretRef (resolved to a string) in every config schema.
      if (mode === 'output')
        return def.out._zod.def.type === 'transform' ? 'string' : typeOf(def.out, indent, path);
      return typeOf(def.in, indent, path);
    case 'array': {
      const element = typeOf(def.element, indent, `${path}[]`);
      const list = `${/[|&]/.test(element) ? `(${element})` : element}[]`;
      return mode === 'input' ? `readonly ${list}` : list;
    }
    case 'record':
      if (def.keyType._zod.def.type !== 'string')
        throw new Error(`${path}: only string record keys are supported`);
      return `Record<string, ${typeOf(def.valueType, indent, `${path}.*`)}>`;
    case 'object':
      return objectType(def, indent, path);
    default:
      throw new Error(`${path}: scripts/config-types.mjs cannot write a zod ${def.type} schema`);
  }
}

function objectType(def, indent, path) {
  const catchall = def.catchall?._zod.def.type;
  if (catchall !== undefined && catchall !== 'never')
    throw new Error(`${path}: only strict objects are supported`);
  const inner = `${indent}  `;
  let out = '{\n';
  for (const [key, field] of Object.entries(def.shape)) {
    const doc = description(field);
    if (doc === undefined) throw new Error(`${path}.${key}: the schema has no description (.describe())`);
    const optional = (mode === 'input' ? field._zod.optin : field._zod.optout) !== undefined;
    const name = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : literal(key);
    out += comment(doc.split('\n'), inner);
    out += `${inner}${name}${optional ? '?' : ''}: ${typeOf(field, inner, `${path}.${key}`)};\n`;
  }
  return `${out}${indent}}`;
}

let source = `// Generated by scripts/config-types.mjs from the config schemas: do not edit. Each field's doc
// comment is its schema's description; run \`node scripts/config-types.mjs\` after changing a schema.
`;
for (const { name, schema, doc } of named) {
  source += `\n${comment(doc, '')}export type ${name} = ${structure(schema, '', name)};\n`;
}
mode = 'output';
source += `\n${comment(
  [
    'One provider after parsing (what parseConfig and loadConfig give): a union discriminated by',
    '`kind`, defaults applied and every secret a string.',
  ],
  '',
)}export type ResolvedProviderConfigOfKind = ${resolvedKinds.map(({ name }) => name).join(' | ')};\n`;
for (const { name, schema, doc } of resolvedKinds) {
  source += `\n${comment(doc, '')}export type ${name} = ${structure(schema, '', name)};\n`;
}

const biome = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome');
const formatted = execFileSync(process.execPath, [biome, 'format', `--stdin-file-path=${target}`], {
  cwd: root,
  input: source,
  encoding: 'utf8',
});

const file = new URL(`../${target}`, import.meta.url);
if (process.argv.includes('--check')) {
  const current = readFileSync(file, 'utf8');
  if (current !== formatted) {
    console.error(`${target} is out of date: run node scripts/config-types.mjs`);
    process.exit(1);
  }
  console.log(`${target} is up to date`);
} else {
  writeFileSync(file, formatted);
  console.log(`wrote ${target}`);
}
