import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runConversationDemo } from '../../examples/demo/conversation-demo.js';
import { SCRIPT } from '../../examples/demo/conversation-servers.js';
import { served, timelineSvg, timelineTable } from '../../examples/demo/timeline.js';
import { encodeWav } from '../../src/index.js';
import { CONFIG_ALIAS, demoTurn, expectFallbackAtEveryStage, readBack, rms } from './voice-turn.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the demo conversation (npm run demo) on the testing kit mocks', () => {
  it('runs four voice turns through voiceTurn(), failing over where ec2-a goes wrong, with a timeline', async () => {
    const demo = await runConversationDemo({
      examplesDir: resolve(root, 'examples'),
      configAlias: CONFIG_ALIAS,
      // A loaded machine must not turn the budget's deadlines into failures of ec2-b: each
      // stage's deadline is half of what the budget has left (at least 50 ms), and with 1500 ms
      // a machine running 8 processes a core left ec2-b 50 ms to stand in for ec2-a's reset
      // speech. ec2-a's silent chat is still cut by the budget (about 2 s in), not left to hang.
      budgetMs: 4000,
    });
    expect(demo.failed).toEqual([]);
    expect(demo.turns.map((t) => t.turn)).toEqual([1, 2, 3, 4]);
    expect(demo.turns.map((t) => t.result.transcript)).toEqual(SCRIPT.map((l) => l.said));
    expect(demo.turns.map((t) => t.result.reply)).toEqual(SCRIPT.map((l) => l.reply));
    // Every reply was heard whole: the mock's speech of each clause, in order, whoever served it.
    for (const t of demo.turns) {
      expect(t.audio.byteLength).toBeGreaterThan(0);
      expect(t.audio.byteLength % 2).toBe(0);
      const tl = t.result.timeline;
      expect(tl.endOfSpeechMs).toBeLessThanOrEqual(tl.finalTranscriptMs);
      expect(tl.finalTranscriptMs).toBeLessThanOrEqual(tl.firstTokenMs!);
      expect(tl.firstTokenMs!).toBeLessThanOrEqual(tl.firstClauseMs!);
      expect(tl.firstClauseMs!).toBeLessThanOrEqual(tl.firstAudioMs!);
    }
    // ec2-a goes wrong partway (chat slower every call, stt 503, a speech reset mid-reply): the
    // turn went on with ec2-b each time, and every reply was still heard whole.
    // Whether ec2-a is picked again after it went wrong depends on latency routing (probes,
    // scores under load), so the number of fallbacks is not fixed; each one goes a -> b.
    for (const e of demo.fallbacks) expect([e.provider, e.next]).toEqual(['ec2-a', 'ec2-b']);
    for (const t of demo.turns) {
      // 'ec2-a!>ec2-b>ec2-a': ec2-b stood in for the sentence ec2-a failed, then handed back.
      for (const stage of [t.result.stages.stt, t.result.stages.chat!, t.result.stages.tts!])
        expect(['ec2-a', 'ec2-b', 'ec2-a!>ec2-b', 'ec2-a!>ec2-b>ec2-a']).toContain(served(stage));
    }
    const table = timelineTable(demo.turns.map((t) => t.result)).split('\n');
    expect(table).toHaveLength(2 + SCRIPT.length);
    // The legend names the cells the stage columns hold (above), and no other.
    expect(table[0]).toBe(
      "ms from end of speech; own = voxroute's share of it; a!>b = a failed, then b served; a!>b>a = b stood in for what a failed, then a served the rest",
    );
    expect(table[1]!.trim().split(/\s+/)).toEqual([
      'turn',
      'final',
      'token',
      'clause',
      'audio',
      'own',
      'stt',
      'chat',
      'tts',
    ]);
    const svg = timelineSvg(demo.turns.map((t) => t.result));
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.match(/>turn \d</g)).toEqual(['>turn 1<', '>turn 2<', '>turn 3<', '>turn 4<']);
    // Real time on real sockets: warm-up turns, four turns and one silent chat cut by the budget
    // take 4-10 s; more room than the default 20 s for a machine shared by many workers.
  }, 60_000);
});

describe('the single demo voice turn on the testing kit mocks', () => {
  it('goes stt -> chat -> tts over real sockets, skipping the failing server at every stage', async () => {
    const { turn, mode } = await demoTurn(true);
    expect(mode).toBe('mock');
    expect(turn.transcript).toBe(
      'And so my fellow Americans ask not what your country can do for you ask what you can do for your country.',
    );
    expect(turn.reply).toBe(
      'You asked what you can do for your country. Start by voting, volunteering, and helping a neighbour.',
    );
    expectFallbackAtEveryStage(turn);
    const wav = await readBack(encodeWav(turn.format, turn.audio));
    expect(wav.format).toEqual({ encoding: 'pcm_s16le', sampleRate: 24000, channels: 1 });
    expect(wav.data.byteLength).toBe(turn.audio.byteLength);
    expect(rms(wav.data)).toBeGreaterThan(0.01);
  });
});
