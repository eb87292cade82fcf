/**
 * Wire fuzzing, every adapter: a valid answer of the provider's wire, mutated (test/fuzz/wire/
 * mutations.ts: cuts at any byte, flipped bytes, frames duplicated, reordered or dropped, end
 * markers dropped or doubled, JSON fields of the wrong type or out of range, invalid base64,
 * odd-length PCM, invalid UTF-8, a wrong content type, the body re-cut anywhere, a close after
 * part of the answer, text frames sent as binary, the provider's in-band error frame (with odd
 * fields, echoing the key), event-stream messages with bad CRCs or lengths, the key echoed back;
 * one at a time and two at once), served by a loopback server of its own, with a healthy backup
 * behind it; each case through a router of its own, and a sequence of them through one router
 * (warm sockets, pooled connections), each followed by a valid answer that must give exactly
 * its output. Every case must keep the contract judged in wire/run.ts: the backup's exact
 * output or the primary's whole one, a MidStreamError after output, never a crash, a hang, an
 * unhandled rejection, a silent truncation or a leaked secret.
 *
 * Found by it (a named regression in test/cases/bidi-output-after-end-marker.test.ts): a
 * SageMaker bidirectional stream with output after the codec's end marker hung the call.
 *
 * Fixed seed and a moderate count (PROPERTY_SEED, test/helpers/property-seed.ts, changes the
 * seed); `WIRE_FUZZ_RUNS` raises the count per adapter; `WIRE_FUZZ_EXHAUSTIVE=1` also cuts the
 * answer at every byte with every ending (and re-cuts the body there); `WIRE_FUZZ_REPORT=<file>`
 * appends every case as a JSON line.
 */
import { appendFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED } from '../helpers/property-seed.js';
import { collectUnhandledRejections } from '../helpers/unhandled-rejections.js';
import { ADAPTERS } from './wire/adapters.js';
import { type Mutation, mutationArb } from './wire/mutations.js';
import { type CaseResult, fuzzRouter, type Harness, runCase, startHarness } from './wire/run.js';

const RUNS = Number(process.env.WIRE_FUZZ_RUNS ?? 20);
const EXHAUSTIVE = process.env.WIRE_FUZZ_EXHAUSTIVE === '1';
const REPORT = process.env.WIRE_FUZZ_REPORT;
/** Per test: room for a raised count (a case takes tens of ms; one that hangs, a few seconds). */
const TIMEOUT_MS = Math.max(20_000, RUNS * 500);

const unhandled = collectUnhandledRejections();

function record(adapter: string, result: CaseResult): void {
  if (REPORT)
    appendFileSync(
      REPORT,
      `${JSON.stringify({ adapter, kind: result.mutation.kind, label: result.mutation.label, outcome: result.outcome, violations: result.violations })}\n`,
    );
}

describe.each(ADAPTERS)('$name', (adapter) => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness(adapter);
  });
  afterAll(async () => {
    await harness.scope.close();
  });

  it('the valid answer: exactly its output, the backup not asked', async () => {
    const result = await runCase(harness, { kind: 'none' }, unhandled);
    record(adapter.name, result);
    expect(result.outcome).toBe(`${adapter.valid}; ends normally; backup hits 0`);
    expect(result.violations).toEqual([]);
  });

  it(
    'mutated answers keep the contract',
    async () => {
      const failures: string[] = [];
      await fc.assert(
        fc.asyncProperty(mutationArb(adapter.wire), async (mutation: Mutation) => {
          const result = await runCase(harness, mutation, unhandled);
          record(adapter.name, result);
          if (result.violations.length > 0)
            failures.push(`${result.mutation.label} -> ${result.outcome}: ${result.violations.join('; ')}`);
          return result.violations.length === 0;
        }),
        { ...SEEDED, numRuns: RUNS, endOnFailure: true },
      );
      expect(failures).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    'two mutations at once keep the contract',
    async () => {
      const failures: string[] = [];
      await fc.assert(
        fc.asyncProperty(mutationArb(adapter.wire), mutationArb(adapter.wire), async (first, second) => {
          const result = await runCase(harness, [first, second], unhandled);
          record(adapter.name, result);
          if (result.violations.length > 0)
            failures.push(`${result.mutation.label} -> ${result.outcome}: ${result.violations.join('; ')}`);
          return result.violations.length === 0;
        }),
        { ...SEEDED, numRuns: Math.ceil(RUNS / 2), endOnFailure: true },
      );
      expect(failures).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    'one router through mutated answers: each valid answer after one is still exactly its output',
    async () => {
      // Warm sockets, pooled connections and health state carry from one case to the next.
      const shared = fuzzRouter(harness);
      const failures: string[] = [];
      try {
        await fc.assert(
          fc.asyncProperty(mutationArb(adapter.wire), async (mutation: Mutation) => {
            for (const m of [mutation, { kind: 'none' } as const]) {
              const result = await runCase(harness, m, unhandled, shared);
              record(adapter.name, result);
              if (result.violations.length > 0) {
                failures.push(
                  `${result.mutation.label} -> ${result.outcome}: ${result.violations.join('; ')}`,
                );
                return false;
              }
            }
            return true;
          }),
          { ...SEEDED, numRuns: Math.ceil(RUNS / 2), endOnFailure: true },
        );
      } finally {
        await shared.router.close();
      }
      expect(failures).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it.runIf(EXHAUSTIVE)(
    'cut at every byte, with every ending, and split there',
    async () => {
      const total = adapter.frames.reduce((s, f) => s + adapter.wire.encode(f).byteLength, 0);
      const failures: string[] = [];
      const cases: Mutation[] = [];
      for (let at = 0; at <= total; at++) {
        cases.push({ kind: 'truncate', at, ending: 0 }, { kind: 'truncate', at, ending: 1 });
        if (!adapter.wire.messages) cases.push({ kind: 'rechunk', cuts: [at] });
      }
      for (const mutation of cases) {
        const result = await runCase(harness, mutation, unhandled);
        record(adapter.name, result);
        if (result.violations.length > 0)
          failures.push(`${result.mutation.label} -> ${result.outcome}: ${result.violations.join('; ')}`);
      }
      expect(failures).toEqual([]);
    },
    600_000,
  );
});
