/**
 * Load: 500 TTS and 200 STT streams at once through one router, against loopback
 * OpenAI-compatible servers that speak the wire on their own (test/load/wire.ts), with a fault
 * injected into one request in ten on the primary (reset before headers, reset mid-stream,
 * 503, malformed frame) and a healthy backup. The primary holds every request until all 700
 * are in, so all 700 streams are open at once. Every stream's bytes are numbered and checked
 * exactly: each one ends whole (every byte once, in order) or with a typed MidStreamError
 * whose delivered bytes are an exact prefix; none hangs (a watchdog aborts whatever has not
 * settled and counts it); no other error. Memory over 10,000 calls is in bench/load.ts.
 */
import { setMaxListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { MidStreamError, type RouterConfig } from '../../src/index.js';
import { httpServer, router } from '../cases/wire/servers.js';
import { faultOf, loadHandler, STT_CHUNKS, sttChunk, sttText, TTS_CHUNK_BYTES, ttsAudio } from './wire.js';

const TTS_STREAMS = 500;
const STT_STREAMS = 200;
/** Every stream must have settled by then; the rest are hangs. */
const WATCHDOG_MS = 45_000;
const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000 } as const;

type Outcome = 'whole' | 'mid-stream-prefix' | 'wrong-bytes' | 'other-error' | 'hang';

async function* microphone(id: number): AsyncGenerator<Uint8Array> {
  for (let k = 0; k < STT_CHUNKS; k++) yield sttChunk(id, k);
}

describe('load: 500 tts + 200 stt concurrent streams, 10% injected faults', () => {
  it('0 lost, 0 duplicated bytes, 0 hangs: every stream whole or a typed MidStreamError with an exact prefix', async () => {
    // The primary holds every request until all 700 are in: the streams really run at once (a
    // fast loopback answer would otherwise end each one before the next is sent). The most
    // requests in flight at once is checked below.
    let inFlight = 0;
    let mostInFlight = 0;
    let allIn!: () => void;
    const everyoneIn = new Promise<void>((resolve) => {
      allIn = resolve;
    });
    const handlePrimary = loadHandler('primary');
    const primary = await httpServer(async (req, res, n) => {
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      res.on('close', () => inFlight--);
      if (n === TTS_STREAMS + STT_STREAMS) allIn();
      await everyoneIn;
      return handlePrimary(req, res);
    });
    const backup = await httpServer(loadHandler('backup'));
    const r = router({
      providers: {
        primary: {
          kind: 'openai-compatible',
          baseUrl: primary.url,
          tts: { voices: { agent: 'alloy' }, streamFormat: 'sse' },
          stt: { model: 'whisper', streaming: false },
        },
        backup: {
          kind: 'openai-compatible',
          baseUrl: backup.url,
          tts: { voices: { agent: 'alloy' } },
          stt: { model: 'whisper', streaming: false },
        },
      },
      defaults: {
        // Deadlines off or wide: a shared 2-core CI machine is slow; hangs are the watchdog's.
        routes: {
          strategy: 'priority',
          firstChunkTimeoutMs: false,
          idleTimeoutMs: 30_000,
          connectTimeoutMs: 20_000,
        },
      },
      routes: {
        tts: { providers: ['primary', 'backup'] },
        stt: { providers: ['primary', 'backup'] },
      },
    } as RouterConfig);

    const stop = new AbortController();
    setMaxListeners(0, stop.signal);
    const outcomes = new Map<string, Outcome>();
    const details: string[] = [];

    const tts = async (id: number): Promise<Outcome> => {
      const expected = ttsAudio(id);
      const got: Buffer[] = [];
      try {
        for await (const chunk of r.tts({ text: `stream ${id}.`, voice: 'agent', signal: stop.signal }))
          got.push(Buffer.from(chunk.data));
      } catch (error) {
        if (stop.signal.aborted) return 'hang';
        const delivered = Buffer.concat(got);
        if (MidStreamError.isInstance(error) && delivered.byteLength > 0) {
          // An exact prefix, cut on a chunk the server sent whole.
          const prefix = delivered.equals(expected.subarray(0, delivered.byteLength));
          if (prefix && delivered.byteLength % TTS_CHUNK_BYTES === 0) return 'mid-stream-prefix';
          return 'wrong-bytes';
        }
        details.push(`tts ${id} (${faultOf(id)}): ${(error as Error).name}: ${(error as Error).message}`);
        return 'other-error';
      }
      return Buffer.concat(got).equals(expected) ? 'whole' : 'wrong-bytes';
    };

    const stt = async (id: number): Promise<Outcome> => {
      const texts: string[] = [];
      try {
        for await (const e of r.stt({ audio: microphone(id), format: FORMAT, signal: stop.signal }))
          if (e.type === 'final') texts.push(e.text);
      } catch (error) {
        if (stop.signal.aborted) return 'hang';
        details.push(`stt ${id} (${faultOf(id)}): ${(error as Error).name}: ${(error as Error).message}`);
        return 'other-error';
      }
      return texts.length === 1 && texts[0] === sttText(id) ? 'whole' : 'wrong-bytes';
    };

    const runs = [
      ...Array.from({ length: TTS_STREAMS }, (_, id) =>
        tts(id).then((o) => void outcomes.set(`tts ${id}`, o)),
      ),
      ...Array.from({ length: STT_STREAMS }, (_, id) =>
        stt(id).then((o) => void outcomes.set(`stt ${id}`, o)),
      ),
    ];
    let watchdog: NodeJS.Timeout | undefined;
    const fired = new Promise<void>((resolve) => {
      watchdog = setTimeout(() => {
        stop.abort(new Error('watchdog'));
        allIn();
        resolve();
      }, WATCHDOG_MS);
    });
    await Promise.race([Promise.all(runs), fired]);
    clearTimeout(watchdog);
    await Promise.all(runs);

    const count = (prefix: string, outcome: Outcome) =>
      [...outcomes].filter(([k, o]) => k.startsWith(prefix) && o === outcome).length;
    const summary = Object.fromEntries(
      (['whole', 'mid-stream-prefix', 'wrong-bytes', 'other-error', 'hang'] as const).map((o) => [
        o,
        { tts: count('tts', o), stt: count('stt', o) },
      ]),
    ) as Record<Outcome, { tts: number; stt: number }>;
    expect(details.slice(0, 5)).toEqual([]);
    expect(summary['wrong-bytes']).toEqual({ tts: 0, stt: 0 });
    expect(summary['other-error']).toEqual({ tts: 0, stt: 0 });
    expect(summary.hang).toEqual({ tts: 0, stt: 0 });
    expect(outcomes.size).toBe(TTS_STREAMS + STT_STREAMS);
    expect(mostInFlight).toBe(TTS_STREAMS + STT_STREAMS);
    // Healthy streams, and faults before the first chunk, are whole (through the backup).
    for (const [key, outcome] of outcomes) {
      const id = Number(key.split(' ')[1]);
      const fault = faultOf(id);
      if (key.startsWith('stt') || fault === 'none' || fault === 'reset-before-headers' || fault === '503')
        expect([key, outcome]).toEqual([key, 'whole']);
    }
    // The mid-stream faults were injected (50 TTS streams) and cut some streams after audio.
    expect(summary['mid-stream-prefix'].tts).toBeGreaterThan(0);
    expect(summary['mid-stream-prefix'].tts).toBeLessThanOrEqual(TTS_STREAMS / 10 / 2);
    expect(summary.whole.tts + summary['mid-stream-prefix'].tts).toBe(TTS_STREAMS);
    expect(summary.whole.stt).toBe(STT_STREAMS);
    expect(backup.hits).toBeGreaterThanOrEqual((TTS_STREAMS + STT_STREAMS) / 10 / 2);
  }, 90_000);
});
