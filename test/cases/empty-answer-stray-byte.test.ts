/**
 * Empty answers of every TTS wire: an answer that is one stray byte (half a PCM s16le sample)
 * holds no audio, exactly as an empty body does. The provider that sent it fails with a
 * ProtocolError; the next provider is asked and speaks; nobody else is charged. A later
 * sentence answered so is never skipped in silence. Audio followed by half a sample delivers
 * the whole samples and drops the half one with a warning. Servers speak each wire on their
 * own (loopback).
 */
import { describe, expect, it } from 'vitest';
import {
  AllProvidersFailedError,
  type AudioChunk,
  MidStreamError,
  ProtocolError,
  type Router,
  type RouterConfig,
  type VoxrouteError,
} from '../../src/index.js';
import { concat, drain, pcmSignal, router } from './wire/servers.js';
import { TTS_KINDS } from './wire/tts-servers.js';

const S1 = 'Hello there, friend.';
const S2 = 'How are you doing today?';
const S3 = 'I am doing fine, thanks.';
const ONE_CLAUSE = 'Your table is booked.';
const STRAY = Buffer.from([1]);
const NO_AUDIO = "Provider 'a' returned no audio (only 1 stray byte, less than one sample)";

/** 0.1 s of PCM s16le 24 kHz, one signal per provider and sentence. */
const A = {
  [S1]: pcmSignal(2400, 24_000, 1),
  [S2]: pcmSignal(2400, 24_000, 2),
  [S3]: pcmSignal(2400, 24_000, 3),
};
const B = {
  [S1]: pcmSignal(2400, 24_000, 4),
  [S2]: pcmSignal(2400, 24_000, 5),
  [S3]: pcmSignal(2400, 24_000, 6),
  [ONE_CLAUSE]: pcmSignal(2400, 24_000, 7),
};
const of = (voice: Record<string, Buffer>) => (text: string) => {
  const audio = voice[text];
  if (!audio) throw new Error(`unexpected text ${JSON.stringify(text)}`);
  return audio;
};

/** The backup: an OpenAI-compatible server speaking B's audio. */
const BACKUP = TTS_KINDS[0]!;

interface Warning {
  message: string;
  attributes: Record<string, unknown> | undefined;
}

function routed(
  providers: RouterConfig['providers'],
  order: string[],
  midStream: 'error' | 'resume' = 'error',
): { r: Router; warnings: Warning[] } {
  const warnings: Warning[] = [];
  const r = router(
    {
      providers,
      routes: { tts: { providers: order, strategy: 'priority', firstChunkTimeoutMs: false, midStream } },
    },
    { logger: { warn: (message, attributes) => warnings.push({ message, attributes }) } },
  );
  return { r, warnings };
}

/** Errors charged to each provider of the tts capability in `router.stats()`. */
function errorsOf(r: Router): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of r.stats().providers) if (s.capability === 'tts') out[s.provider] = s.errors;
  return out;
}

const STRAY_WARNING = (provider: string) => ({
  message: 'Dropped a stray partial sample at the end of a provider stream',
  attributes: { provider, droppedBytes: 1, encoding: 'pcm_s16le', sampleRate: 24_000 },
});

describe('empty-answer: a stray byte (half a sample) is no audio, on every TTS wire', () => {
  for (const kind of TTS_KINDS) {
    it(`empty-answer: stray byte alone from ${kind.name}: a fails with ProtocolError, b is asked and speaks, b is not charged`, async () => {
      const a = await kind.serve(() => STRAY);
      const b = await BACKUP.serve(of(B));
      const { r, warnings } = routed({ a: a.provider, b: b.provider }, ['a', 'b']);
      const stream = r.tts({ text: S1, voice: 'agent' });
      const { items, error } = await drain(stream);
      expect(error).toBeUndefined();
      expect(concat(items.map((c) => c.data)).equals(B[S1])).toBe(true);
      expect(a.requests).toEqual([S1]);
      expect(b.requests).toEqual([S1]);
      const result = await stream.result;
      expect(result.provider).toBe('b');
      expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
        ['a', 'failed'],
        ['b', 'success'],
      ]);
      const failure = result.attempts[0]!.error as VoxrouteError;
      expect(ProtocolError.isInstance(failure)).toBe(true);
      expect(failure.message).toBe(NO_AUDIO);
      expect(failure.retryable).toBe(true);
      expect(errorsOf(r)).toEqual({ a: 1, b: 0 });
      expect(warnings).toEqual([STRAY_WARNING('a')]);

      const alone = routed({ a: a.provider }, ['a']).r;
      const lone = await drain(alone.tts({ text: S1, voice: 'agent' }));
      expect(lone.items).toEqual([]);
      expect(AllProvidersFailedError.isInstance(lone.error)).toBe(true);
      const attempts = (lone.error as AllProvidersFailedError).attempts;
      expect(attempts.map((x) => x.provider)).toEqual(['a']);
      expect(ProtocolError.isInstance(attempts[0]!.error)).toBe(true);
      expect((attempts[0]!.error as VoxrouteError).message).toBe(NO_AUDIO);
      expect(a.requests).toEqual([S1, S1]);
      expect(errorsOf(alone)).toEqual({ a: 1 });
    });

    it(`empty-answer: stray byte for a later sentence from ${kind.name}, midStream 'error': MidStreamError after sentence 1, b never asked`, async () => {
      const a = await kind.serve((text) => (text === S2 ? STRAY : of(A)(text)));
      const b = await BACKUP.serve(of(B));
      const { r } = routed({ a: a.provider, b: b.provider }, ['a', 'b'], 'error');
      const { items, error } = await drain(r.tts({ text: `${S1} ${S2} ${S3}`, voice: 'agent' }));
      expect(concat(items.map((c) => c.data)).equals(A[S1])).toBe(true);
      expect(MidStreamError.isInstance(error)).toBe(true);
      const cause = (error as MidStreamError).cause as VoxrouteError;
      expect(ProtocolError.isInstance(cause)).toBe(true);
      expect(cause.message).toBe(NO_AUDIO);
      // Sentence 2 is asked once more of the same provider before the route's midStream rule.
      expect(a.requests).toEqual([S1, S2, S2]);
      expect(b.requests).toEqual([]);
      // b was never tried: it has no stats at all.
      expect(errorsOf(r)).toEqual({ a: 1 });
    });

    it(`empty-answer: stray byte for a later sentence from ${kind.name}, midStream 'resume': b speaks from that sentence on`, async () => {
      const a = await kind.serve((text) => (text === S2 ? STRAY : of(A)(text)));
      const b = await BACKUP.serve(of(B));
      const { r } = routed({ a: a.provider, b: b.provider }, ['a', 'b'], 'resume');
      const stream = r.tts({ text: `${S1} ${S2} ${S3}`, voice: 'agent' });
      const { items, error } = await drain(stream);
      expect(error).toBeUndefined();
      expect(concat(items.map((c) => c.data)).equals(Buffer.concat([A[S1], B[S2], B[S3]]))).toBe(true);
      // b takes sentence 2 over and keeps sentence 3: a, which failed in this call, is not
      // asked for it (sentence 2 twice: the sentence retry).
      expect(b.requests).toEqual([S2, S3]);
      expect(a.requests).toEqual([S1, S2, S2]);
      // The first chunk after the switch is marked.
      const marks = (chunks: readonly AudioChunk[]) =>
        chunks.filter((c) => c.discontinuity === true).map((c) => c.data.byteLength);
      expect(marks(items)).toEqual([B[S2].byteLength]);
      expect(errorsOf(r)).toEqual({ a: 1, b: 0 });
    });

    it(`empty-answer: audio then a stray byte from ${kind.name}: the whole samples play, the half one is dropped with a warning`, async () => {
      const a = await kind.serve((text) => Buffer.concat([of(A)(text), STRAY]));
      const b = await BACKUP.serve(of(B));
      const { r, warnings } = routed({ a: a.provider, b: b.provider }, ['a', 'b']);
      const stream = r.tts({ text: S1, voice: 'agent' });
      const { items, error } = await drain(stream);
      expect(error).toBeUndefined();
      expect(concat(items.map((c) => c.data)).equals(A[S1])).toBe(true);
      const result = await stream.result;
      expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([['a', 'success']]);
      expect(a.requests).toEqual([S1]);
      expect(b.requests).toEqual([]);
      expect(warnings).toEqual([STRAY_WARNING('a')]);
      expect(errorsOf(r)).toEqual({ a: 0 });
    });
  }

  // Streamed text on a provider that takes text as a stream: one context for the utterance.
  for (const kind of TTS_KINDS.filter((k) => k.name.includes('WebSocket') || k.name.includes('websocket'))) {
    it(`empty-answer: stray byte alone from ${kind.name} for streamed text: a fails with ProtocolError, b is asked and speaks`, async () => {
      const a = await kind.serve(() => STRAY);
      const b = await BACKUP.serve(of(B));
      const { r, warnings } = routed({ a: a.provider, b: b.provider }, ['a', 'b']);
      // One clause: streamed text is cut at clause ends (a comma too).
      async function* tokens() {
        yield ONE_CLAUSE;
      }
      const stream = r.tts({ text: tokens(), voice: 'agent' });
      const { items, error } = await drain(stream);
      expect(error).toBeUndefined();
      expect(concat(items.map((c) => c.data)).equals(B[ONE_CLAUSE])).toBe(true);
      expect(a.requests).toEqual([ONE_CLAUSE]);
      expect(b.requests).toEqual([ONE_CLAUSE]);
      const result = await stream.result;
      expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
        ['a', 'failed'],
        ['b', 'success'],
      ]);
      expect(ProtocolError.isInstance(result.attempts[0]!.error)).toBe(true);
      expect((result.attempts[0]!.error as VoxrouteError).message).toBe(NO_AUDIO);
      expect(errorsOf(r)).toEqual({ a: 1, b: 0 });
      expect(warnings).toEqual([STRAY_WARNING('a')]);
    });
  }
});
