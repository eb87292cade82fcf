/**
 * The declarations a user's compiler reads (what the package ships as dist/*.d.ts) type-check
 * under the strictest settings users run: `strict`, `exactOptionalPropertyTypes` (on in
 * @tsconfig/strictest) and `skipLibCheck: false`. voxroute's own build compiles with
 * `exactOptionalPropertyTypes` off, so a declaration that is only valid without it shipped
 * unnoticed: voxroute/ai-sdk's `RouteModel<Options extends { route?: string }>` was extended
 * with `{ route?: string | undefined }` options, and every project with those settings that
 * imported voxroute/ai-sdk failed with TS2344 inside node_modules/voxroute.
 *
 * The declarations are emitted in memory from the public entries (as tsup's dts build does,
 * file by file rather than bundled) and checked in a second program; only diagnostics inside
 * voxroute's own declarations count (msw's, ai's or LiveKit's are theirs).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const entries = ['src/index.ts', 'src/testing/index.ts', 'src/ai-sdk/index.ts', 'src/livekit/index.ts'];
/** Where the emitted declarations live, in memory only. */
const outDir = join(root, '.decl-check');

function emitDeclarations(): Map<string, string> {
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const options: ts.CompilerOptions = {
    ...parsed.options,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    declarationMap: false,
    // The sources' own type errors are the type-check's to find; emitting needs only the
    // declarations' types, which is several times faster without checking every body.
    noCheck: true,
    rootDir: join(root, 'src'),
    outDir,
  };
  const files = new Map<string, string>();
  const program = ts.createProgram(
    entries.map((e) => join(root, e)),
    options,
  );
  const result = program.emit(undefined, (name, text) => files.set(name, text), undefined, true);
  if (result.emitSkipped) throw new Error('declaration emit was skipped');
  return files;
}

function checkDeclarations(files: Map<string, string>): string[] {
  // Ambient declarations of the sources (untyped wasm modules) that the emitted files rely on.
  const ambient = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.d.ts'))
    .map((f) => join(root, 'src', f));
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    exactOptionalPropertyTypes: true,
    skipLibCheck: false,
    noEmit: true,
    types: ['node'],
    // The declarations import the package by its name (voxroute/ai-sdk does): its emitted entry.
    paths: { voxroute: [join(outDir, 'index.d.ts')] },
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => files.get(name) ?? readFile(name);
  host.fileExists = (name) => files.has(name) || fileExists(name);
  const directoryExists = host.directoryExists?.bind(host);
  host.directoryExists = (name) => name.startsWith(outDir) || (directoryExists?.(name) ?? true);
  host.getSourceFile = (name, version, onError, create) => {
    const text = files.get(name);
    return text !== undefined
      ? ts.createSourceFile(name, text, version)
      : getSourceFile(name, version, onError, create);
  };
  const program = ts.createProgram([...files.keys(), ...ambient], options, host);
  return [...files.keys()].flatMap((name) => {
    const source = program.getSourceFile(name);
    if (source === undefined) return [`${name}: not in the program`];
    return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map(
      (d) => {
        const at = d.start !== undefined ? source.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
        const message = ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0];
        return `${name.slice(outDir.length + 1)}:${at}: TS${d.code} ${message}`;
      },
    );
  });
}

it("voxroute's declarations type-check with exactOptionalPropertyTypes and skipLibCheck off", {
  timeout: 300_000,
}, () => {
  const files = emitDeclarations();
  expect([...files.keys()].map((f) => f.slice(outDir.length + 1))).toEqual(
    expect.arrayContaining(['index.d.ts', 'testing/index.d.ts', 'ai-sdk/index.d.ts', 'livekit/index.d.ts']),
  );
  expect(checkDeclarations(files)).toEqual([]);
});
