/**
 * The working backup `b` of the fallback cases, and the checks made on a call it served after
 * the provider under test (`a`) failed. b is one OpenAI-compatible server written here
 * (node:http on loopback, ./servers.ts), not one of voxroute's mocks: chat answers
 * {@link BACKUP_REPLY}, batch transcription {@link BACKUP_TRANSCRIPT}, speech (any other path)
 * {@link BACKUP_AUDIO}. Everything it starts is closed after each test.
 */
import { expect } from 'vitest';
import { ProviderError, type RouteConfig, type Router, type RouterConfig } from '../../../src/index.js';
import {
  answerChat,
  answerPcm,
  drain,
  httpServer,
  multipart,
  pcmSignal,
  pieces,
  readBody,
  router,
  wavData,
} from './servers.js';

/** A capability routed over a then b. */
export type Capability = 'chat' | 'tts' | 'stt';
type ProviderConfig = RouterConfig['providers'][string];

/** What b speaks: PCM s16le, 24 kHz, mono, 2400 samples. */
export const BACKUP_AUDIO = pcmSignal(2400, 24_000);
/** What b's chat answers. */
export const BACKUP_REPLY = 'Table for two at eight.';
/** What b's batch transcription answers. */
export const BACKUP_TRANSCRIPT = 'heard by the backup';

const PCM24K = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 } as const;
const FORMAT16K = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
/** What an STT call sends: 1 s of PCM s16le at 16 kHz. */
const SPEECH = pcmSignal(16_000, 16_000, 2);

/**
 * b, configured for `capabilities` only (chat model `fast`, voice `agent`, batch STT): its config
 * and its server (`hits` counts requests). A transcription upload must be a WAV file in a
 * multipart body, or b fails the request.
 */
async function backup(capabilities: readonly Capability[]) {
  const wire = await httpServer(async (req, res) => {
    if (req.url?.endsWith('/chat/completions')) {
      req.resume();
      req.on('end', () => answerChat(res, BACKUP_REPLY));
    } else if (req.url?.endsWith('/audio/transcriptions')) {
      wavData(multipart(req.headers['content-type'], await readBody(req)).get('file')!);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ text: BACKUP_TRANSCRIPT }));
    } else {
      req.resume();
      req.on('end', () => answerPcm(res, BACKUP_AUDIO));
    }
  });
  const config: ProviderConfig = {
    kind: 'openai-compatible',
    baseUrl: `${wire.url}/v1`,
    ...(capabilities.includes('chat') ? { chat: { models: { fast: 'backup-model' } } } : {}),
    ...(capabilities.includes('tts')
      ? { tts: { voices: { agent: 'v' }, responseFormat: 'pcm' as const } }
      : {}),
    ...(capabilities.includes('stt') ? { stt: { model: 'whisper', streaming: false } } : {}),
  };
  return { wire, config };
}

/**
 * A router (closed after the test) over `a` then b, priority order, on the route of each of
 * `capabilities` with the options `route`: the router, b's server, and the breaker events as
 * `provider:from->to:reason`, in order.
 */
export async function routerOverBackup(
  a: ProviderConfig,
  capabilities: readonly Capability[],
  route: Omit<RouteConfig, 'providers'> = {},
) {
  const b = await backup(capabilities);
  const r = router({
    providers: { a, b: b.config },
    routes: Object.fromEntries(
      capabilities.map((c) => [c, { providers: ['a', 'b'], strategy: 'priority' as const, ...route }]),
    ),
  });
  const breakers: string[] = [];
  r.on('breaker', (e) => breakers.push(`${e.provider}:${e.from}->${e.to}:${e.reason}`));
  return { r, b: b.wire, breakers };
}

/**
 * One call of `capability` through `r` (chat: model `fast`, one user message; tts: `ttsText` in
 * voice `agent`, PCM 24 kHz; stt: 1 s of speech at 16 kHz in 3200-byte pieces): what the caller
 * got, the error if any, and the result when there was none.
 */
export async function call(r: Router, capability: Capability, ttsText = 'Your table is booked.') {
  const stream =
    capability === 'chat'
      ? r.chat({ model: 'fast', messages: [{ role: 'user', content: 'Book a table.' }] })
      : capability === 'tts'
        ? r.tts({ text: ttsText, voice: 'agent', format: PCM24K })
        : r.stt({ audio: pieces(SPEECH, 3200), format: FORMAT16K });
  const { items, error } = await drain(stream as AsyncIterable<unknown>);
  return { items, error, result: error === undefined ? await stream.result : undefined };
}

/**
 * One {@link call}: checks the caller got b's answer whole with no error, that b served it after
 * a failed (attempts `a` failed, `b` success), and returns a's error, a ProviderError.
 */
export async function servedByBackup(
  r: Router,
  capability: Capability,
  ttsText?: string,
): Promise<ProviderError> {
  const { items, error, result } = await call(r, capability, ttsText);
  expect(error).toBe(undefined);
  if (capability === 'chat') {
    const text = items
      .map((e) => ((e as { type: string }).type === 'text-delta' ? (e as { text: string }).text : ''))
      .join('');
    expect(text).toBe(BACKUP_REPLY);
  } else if (capability === 'tts') {
    const bytes = Buffer.concat(items.map((c) => Buffer.from((c as { data: Uint8Array }).data)));
    expect(bytes.equals(BACKUP_AUDIO)).toBe(true);
  } else {
    expect(items).toEqual([expect.objectContaining({ type: 'final', text: BACKUP_TRANSCRIPT })]);
  }
  expect(result!.provider).toBe('b');
  expect(result!.attempts.map((a) => [a.provider, a.outcome])).toEqual([
    ['a', 'failed'],
    ['b', 'success'],
  ]);
  const failure = result!.attempts[0]!.error;
  expect(failure).toBeInstanceOf(ProviderError);
  return failure as ProviderError;
}

/** The health of `provider` for `capability` in `r.stats()`. */
export function health(r: Router, provider: string, capability: Capability) {
  const row = r.stats().providers.find((p) => p.provider === provider && p.capability === capability);
  return { breaker: row?.breaker, errors: row?.errors, misconfigured: row?.misconfigured };
}

/**
 * a was charged one ordinary failure for `capability`: no breaker event, its breaker closed, one
 * error, not misconfigured.
 */
export function expectChargedToA(r: Router, breakers: readonly string[], capability: Capability): void {
  expect(breakers).toEqual([]);
  expect(health(r, 'a', capability)).toEqual({ breaker: 'closed', errors: 1, misconfigured: false });
}

/**
 * a's failure was auth: its breaker opened at once (`a:closed->open:auth`, the only breaker
 * event), it is marked misconfigured, and the next call of `capability` goes to b alone.
 */
export async function expectOpenedAsMisconfigured(
  r: Router,
  breakers: readonly string[],
  capability: Capability,
  ttsText?: string,
): Promise<void> {
  expect(breakers).toEqual(['a:closed->open:auth']);
  expect(health(r, 'a', capability)).toMatchObject({ breaker: 'open', misconfigured: true });
  const { result } = await call(r, capability, ttsText);
  expect(result!.attempts.map((x) => x.provider)).toEqual(['b']);
}
