/**
 * The types a user passes in (requests, voiceTurn(), createRouter()'s options, loadConfig() and
 * parseConfig()'s options, startMockProviders() and startMockServer()'s options, the mock
 * factories' and msw handlers' options and the synthetic audio helpers' of voxroute/testing, the
 * model options of voxroute/ai-sdk, the plugin options of voxroute/livekit) accept
 * `undefined` for every optional field, as the runtime does ("a field set to `undefined` counts
 * as unset"). Without it, a project compiled with `exactOptionalPropertyTypes` (on in
 * @tsconfig/strictest) cannot pass an optional value through, the usual way to forward a
 * barge-in signal: `router.tts({ text, voice, signal })` with `signal?: AbortSignal` was TS2379.
 * The config types (generated from the zod schemas) accept it already.
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The caller-input types, by the entry file that exports them. */
const inputTypes = {
  'src/index.ts': [
    'AudioFormat',
    'CallOptions',
    'ChatMessage',
    'ChatRequest',
    'ChatTool',
    'LoadConfigOptions',
    'ParseConfigOptions',
    'RouterOptions',
    'SttRequest',
    'TtsRequest',
    'VoiceTurnRequest',
  ],
  'src/testing/index.ts': [
    'AnthropicHandlersOptions',
    'AnthropicMockOptions',
    'CartesiaHandlersOptions',
    'CartesiaMockOptions',
    'DeepgramHandlersOptions',
    'DeepgramMockOptions',
    'DeepgramMockSpeechOptions',
    'ElevenLabsHandlersOptions',
    'ElevenLabsMockOptions',
    'MockServerOptions',
    'MockSpeechOptions',
    'OpenAiCompatibleHandlersOptions',
    'OpenAiCompatibleMockOptions',
    'SageMakerChatEndpointOptions',
    'SageMakerEmulatorOptions',
    'SageMakerHandlersOptions',
    'SageMakerMockOptions',
    'SageMakerSttEndpointOptions',
    'SageMakerTtsEndpointOptions',
    'StartMockProvidersOptions',
    'SyntheticAudioOptions',
    'SyntheticVoiceOptions',
  ],
  'src/ai-sdk/index.ts': ['VoxrouteModelOptions', 'VoxrouteSpeechOptions', 'VoxrouteTranscriptionOptions'],
  'src/livekit/index.ts': ['EndpointingOptions', 'LLMOptions', 'STTOptions', 'TTSOptions'],
} as const;

/** What a user with `exactOptionalPropertyTypes` writes: optional values passed straight through. */
const userCode = `
import { createRouter, loadConfig, parseConfig, voiceTurn, type AudioFormat, type ChatMessage, type Router } from './src/index.js';
import { startMockProviders, startMockServer, createOpenAiCompatibleMock, createCartesiaMock, syntheticAudio } from './src/testing/index.js';
import { createVoxroute } from './src/ai-sdk/index.js';
import { LLM, STT, TTS } from './src/livekit/index.js';

declare const router: Router;
declare const maybe: { signal?: AbortSignal; format?: AudioFormat; language?: string; n?: number; flag?: boolean; s?: string };

export async function speak(text: string): Promise<void> {
  const { signal, format, language, n } = maybe;
  for await (const chunk of router.tts({ text, voice: 'agent', signal, format, language, speed: n, route: maybe.s, deadlineMs: n, firstChunkTimeoutMs: n, hedgeAfterMs: n })) void chunk;
}
export async function ask(messages: ChatMessage[]): Promise<void> {
  const history: ChatMessage[] = [...messages, { role: 'assistant', content: '', toolCalls: undefined }];
  const tools = [{ name: 'book', description: maybe.s, parameters: { type: 'object' } }];
  for await (const e of router.chat({ model: 'fast', messages: history, maxTokens: maybe.n, temperature: maybe.n, tools, signal: maybe.signal })) void e;
}
export async function hear(audio: AsyncIterable<Uint8Array>): Promise<void> {
  const format = { encoding: 'pcm_s16le', sampleRate: 16000, channels: undefined } as const;
  for await (const e of router.stt({ audio, format, language: maybe.language, interim: maybe.flag })) void e;
}
export function turn(audio: AsyncIterable<Uint8Array>) {
  return voiceTurn(router, {
    audio,
    format: { encoding: 'pcm_s16le', sampleRate: 16000 },
    messages: [],
    model: 'fast',
    voice: 'agent',
    output: maybe.format,
    routes: maybe.flag ? { stt: maybe.s, chat: maybe.s, tts: maybe.s } : undefined,
    language: maybe.language,
    interim: maybe.flag,
    budgetMs: maybe.n,
    signal: maybe.signal,
  });
}
export async function setUp(fetchImpl?: typeof fetch, env?: Record<string, string | undefined>) {
  const config = await loadConfig('voxroute.config.yaml', { env, cwd: maybe.s, alias: undefined });
  parseConfig({ providers: {}, routes: {} }, { env, source: maybe.s });
  const mocks = await startMockProviders(config, { providers: undefined, host: maybe.s, tls: maybe.flag });
  const server = await startMockServer({ provider: createOpenAiCompatibleMock(), port: maybe.n, host: maybe.s, tls: maybe.flag });
  const r = createRouter(mocks.config, { fetch: fetchImpl, WebSocket: undefined, ca: mocks.ca, clock: undefined, logger: undefined, random: undefined, env, resampleOffload: undefined });
  return { r, server };
}
export function integrations() {
  const vox = createVoxroute(router);
  const models = [vox.languageModel('fast', { route: maybe.s }), vox.speechModel('agent', { route: maybe.s }), vox.transcriptionModel('stt', { route: maybe.s })];
  const plugins = [
    new STT(router, { route: maybe.s, language: maybe.language, sampleRate: maybe.n, interim: maybe.flag, endpointing: maybe.flag ? { silenceMs: maybe.n, thresholdDb: undefined } : undefined }),
    new TTS(router, { voice: 'agent', route: maybe.s, sampleRate: maybe.n, language: maybe.language, speed: maybe.n }),
    new LLM(router, { model: 'fast', route: maybe.s, temperature: maybe.n, maxTokens: maybe.n }),
  ];
  const mocks = [createCartesiaMock({ apiKey: maybe.s, delay: undefined, now: undefined }), createOpenAiCompatibleMock({ apiKey: maybe.s, chat: maybe.s, models: undefined })];
  return { models, plugins, mocks, audio: syntheticAudio({ durationMs: 100, sampleRate: 16000, seed: maybe.n }) };
}
`;
const userFile = `${root}__exact-optional-user-code__.ts`;

function program(): ts.Program {
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    exactOptionalPropertyTypes: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, onError, create) =>
    name === userFile
      ? ts.createSourceFile(name, userCode, version)
      : getSourceFile(name, version, onError, create);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === userFile || fileExists(name);
  return ts.createProgram([userFile, ...Object.keys(inputTypes).map((f) => `${root}${f}`)], options, host);
}

function includesUndefined(node: ts.TypeNode | undefined): boolean {
  if (node === undefined) return true; // no annotation: any
  if (ts.isParenthesizedTypeNode(node)) return includesUndefined(node.type);
  if (node.kind === ts.SyntaxKind.UndefinedKeyword) return true;
  return ts.isUnionTypeNode(node) && node.types.some((t) => t.kind === ts.SyntaxKind.UndefinedKeyword);
}

/** Optional properties (at any depth of inline object types) whose type does not take `undefined`. */
function strictOptionals(checker: ts.TypeChecker, type: ts.Type, path: string): string[] {
  const out: string[] = [];
  const members = type.isUnion() ? type.types : [type];
  for (const member of members) {
    for (const prop of checker.getPropertiesOfType(member)) {
      const decl = prop.valueDeclaration;
      if (decl === undefined || !ts.isPropertySignature(decl)) continue;
      const at = `${path}.${prop.getName()}`;
      if ((prop.flags & ts.SymbolFlags.Optional) !== 0 && !includesUndefined(decl.type)) out.push(at);
      const literal = decl.type && (ts.isUnionTypeNode(decl.type) ? decl.type.types : [decl.type]);
      for (const node of literal ?? []) {
        if (ts.isTypeLiteralNode(node))
          out.push(...strictOptionals(checker, checker.getTypeFromTypeNode(node), at));
      }
    }
  }
  return [...new Set(out)];
}

describe('optional fields of the input types accept undefined (exactOptionalPropertyTypes)', () => {
  let built: ts.Program | undefined;
  const get = (): ts.Program => {
    built ??= program();
    return built;
  };

  it('user code passing optional values through type-checks', { timeout: 120_000 }, () => {
    const p = get();
    const source = p.getSourceFile(userFile);
    const messages = ts
      .getPreEmitDiagnostics(p, source)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0]);
    expect(messages).toEqual([]);
  });

  it('every optional field of every input type includes undefined', { timeout: 120_000 }, () => {
    const p = get();
    const checker = p.getTypeChecker();
    const found: string[] = [];
    const strict: string[] = [];
    for (const [file, names] of Object.entries(inputTypes)) {
      const source = p.getSourceFile(`${root}${file}`);
      const moduleSymbol = source && checker.getSymbolAtLocation(source);
      if (moduleSymbol === undefined) throw new Error(`cannot read ${file}`);
      for (const exported of checker.getExportsOfModule(moduleSymbol)) {
        const name = exported.getName();
        if (!(names as readonly string[]).includes(name)) continue;
        found.push(name);
        const symbol =
          (exported.flags & ts.SymbolFlags.Alias) !== 0 ? checker.getAliasedSymbol(exported) : exported;
        strict.push(...strictOptionals(checker, checker.getDeclaredTypeOfSymbol(symbol), name));
      }
    }
    expect(found.sort()).toEqual(Object.values(inputTypes).flat().sort());
    expect(strict).toEqual([]);
  });
});
