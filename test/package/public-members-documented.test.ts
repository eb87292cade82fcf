/**
 * Every name a user can import (from `voxroute` and each subpath) has a doc comment, and so has
 * every member of it a user can reach in an editor: properties, methods, getters, constructors,
 * call signatures and enum members of exported interfaces, classes, object-literal type aliases
 * (each variant of a union) and enums, and the members of inline object types of those members
 * (`routes?: { stt?: string }`, the sections of a provider config), three levels deep. Members are read through the type checker, so members a
 * type gets from another project type (`extends`, `Omit<...>`) count under the exported name.
 * Out of scope: members declared outside src/ (lib, node_modules: `Error.message`, a LiveKit base
 * class), private, protected, `#` and `_`-prefixed class members.
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const entries = {
  voxroute: 'src/index.ts',
  'voxroute/testing': 'src/testing/index.ts',
  'voxroute/ai-sdk': 'src/ai-sdk/index.ts',
  'voxroute/livekit': 'src/livekit/index.ts',
} as const;

function inProject(node: ts.Node): boolean {
  const file = node.getSourceFile().fileName;
  return file.startsWith(`${root}src/`) && !file.includes('/node_modules/');
}

function where(node: ts.Node): string {
  const source = node.getSourceFile();
  const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
  return `${source.fileName.slice(root.length)}:${line + 1}`;
}

function hasJsDoc(node: ts.Node): boolean {
  return ts.getJSDocCommentsAndTags(node).length > 0;
}

function isHidden(decl: ts.Declaration): boolean {
  const name = ts.getNameOfDeclaration(decl);
  if (name !== undefined && ts.isPrivateIdentifier(name)) return true;
  if (name !== undefined && ts.isIdentifier(name) && name.text.startsWith('_')) return true;
  const flags = ts.getCombinedModifierFlags(decl);
  return (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !== 0;
}

interface Report {
  /** Export names read per entry point, for the sanity check. */
  names: Map<string, string[]>;
  /** `Type.member (file:line)` of every exported name or member without a doc comment. */
  missing: string[];
  /** How many exported names and members were checked. */
  checked: number;
}

function undocumented(): Report {
  const files = Object.values(entries).map((f) => `${root}${f}`);
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const names = new Map<string, string[]>();
  const missing = new Map<string, string>();
  const seen = new Set<string>();
  let checked = 0;

  const documented = (symbol: ts.Symbol | undefined, decls: readonly ts.Node[]): boolean =>
    (symbol !== undefined && symbol.getDocumentationComment(checker).length > 0) || decls.some(hasJsDoc);

  /** Checks one member; `decls` are its declarations, `label` its `Type.member` name. */
  const check = (label: string, symbol: ts.Symbol | undefined, decls: readonly ts.Declaration[]): void => {
    const own = decls.filter(inProject);
    if (own.length === 0 || own.some(isHidden)) return;
    const first = own[0] as ts.Declaration;
    const key = `${where(first)}#${first.pos}`;
    if (seen.has(key)) return;
    seen.add(key);
    checked += 1;
    if (!documented(symbol, own)) missing.set(key, `${label} (${where(first)})`);
  };

  const checkMembersOf = (owner: string, type: ts.Type, depth = 0): void => {
    for (const prop of checker.getPropertiesOfType(type)) {
      if (prop.getName() === 'prototype') continue;
      const label = `${owner}.${prop.getName()}`;
      check(label, prop, prop.declarations ?? []);
      // An inline object type of a project member (`routes?: { stt?: string }`, a zod section)
      // is shown member by member in editors too.
      const decl = prop.declarations?.[0];
      if (decl === undefined || !inProject(decl) || isHidden(decl) || depth >= 3) continue;
      const value = checker.getNonNullableType(checker.getTypeOfSymbol(prop));
      for (const part of value.isUnion() ? value.types : [value]) {
        if (part.symbol !== undefined && (part.symbol.flags & ts.SymbolFlags.TypeLiteral) !== 0)
          checkMembersOf(label, part, depth + 1);
      }
    }
    for (const kind of [ts.SignatureKind.Call, ts.SignatureKind.Construct]) {
      for (const signature of checker.getSignaturesOfType(type, kind)) {
        const decl = signature.getDeclaration();
        // Only signatures written as members (`(x): y` in an interface or type literal); a function
        // type, function or class is documented by the export or member that has it.
        if (
          decl === undefined ||
          !(ts.isCallSignatureDeclaration(decl) || ts.isConstructSignatureDeclaration(decl))
        )
          continue;
        const label = kind === ts.SignatureKind.Call ? '(call)' : '(new)';
        check(`${owner}${label}`, undefined, [decl]);
      }
    }
  };

  const objectParts = (type: ts.Type): ts.Type[] => {
    if (type.isUnion()) return type.types.flatMap(objectParts);
    return (type.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) !== 0 ? [type] : [];
  };

  const checkExport = (exported: ts.Symbol): void => {
    const symbol =
      (exported.flags & ts.SymbolFlags.Alias) !== 0 ? checker.getAliasedSymbol(exported) : exported;
    const name = exported.getName();
    check(name, symbol, symbol.declarations ?? []);
    for (const decl of symbol.declarations ?? []) {
      if (!inProject(decl)) continue;
      if (ts.isClassDeclaration(decl)) {
        checkMembersOf(name, checker.getDeclaredTypeOfSymbol(symbol));
        checkMembersOf(name, checker.getTypeOfSymbol(symbol));
        for (const member of decl.members) {
          if (ts.isConstructorDeclaration(member) && member.body !== undefined) {
            check(`${name}.constructor`, undefined, [member]);
            for (const param of member.parameters) {
              if (ts.isParameterPropertyDeclaration(param, member)) {
                check(`${name}.${param.name.getText()}`, undefined, [param]);
              }
            }
          }
        }
      } else if (ts.isInterfaceDeclaration(decl)) {
        checkMembersOf(name, checker.getDeclaredTypeOfSymbol(symbol));
      } else if (ts.isTypeAliasDeclaration(decl)) {
        for (const part of objectParts(checker.getDeclaredTypeOfSymbol(symbol))) checkMembersOf(name, part);
      } else if (ts.isEnumDeclaration(decl)) {
        for (const member of decl.members) {
          check(`${name}.${member.name.getText()}`, checker.getSymbolAtLocation(member.name), [member]);
        }
      }
    }
  };

  for (const [subpath, file] of Object.entries(entries)) {
    const source = program.getSourceFile(`${root}${file}`);
    if (source === undefined) throw new Error(`cannot read ${file}`);
    const module = checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`${file} is not a module`);
    const exports = checker.getExportsOfModule(module);
    names.set(subpath, exports.map((s) => s.getName()).sort());
    for (const exported of exports) checkExport(exported);
  }
  return { names, missing: [...missing.values()].sort(), checked };
}

describe('public members are documented', () => {
  const report = undocumented();

  it('reads the export lists and members of every entry point', () => {
    expect(report.names.get('voxroute')).toContain('createRouter');
    expect(report.names.get('voxroute/testing')?.length).toBeGreaterThan(10);
    expect(report.names.get('voxroute/ai-sdk')).toContain('createVoxroute');
    expect(report.names.get('voxroute/livekit')).toContain('TTS');
    // Exports plus their members: far more than the exports alone.
    expect(report.checked).toBeGreaterThan(500);
  });

  it('every exported name and every public member has a doc comment', () => {
    if (report.missing.length > 0) {
      console.log(`${report.missing.length} undocumented:\n${report.missing.join('\n')}`);
    }
    expect(report.missing).toEqual([]);
  });
});
