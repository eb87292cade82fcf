/**
 * The matrix of one transport as vitest cells: every fault it can show x every capability it
 * carries x alone / with a healthy backup, each compared with its row of expected.ts. Cells
 * of one file run one after another (each checks the process's handles, which are global);
 * the files run in parallel.
 */
import { appendFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXPECTED } from '../expected.js';
import { type Cap, cellName } from '../matrix.js';
import type { Transport } from './cell.js';
import { runCell, warmUp } from './run.js';

/** Set to a file path to append every observed outcome as a JSON line (to review a new row). */
const RECORD = process.env.VOXROUTE_FAULTS_RECORD;

export function faultMatrix(transport: Transport): void {
  const rows = EXPECTED[transport.name] ?? [];
  const cells = transport.faults.flatMap((fault) =>
    (Object.keys(transport.caps) as Cap[]).flatMap((cap) =>
      [false, true].map((backup) => {
        const row = rows.find(([f, c]) => f === fault && c === cap);
        return {
          name: cellName(fault, cap, transport.name, backup),
          fault,
          cap,
          backup,
          expected: row ? row[backup ? 3 : 2] : undefined,
        };
      }),
    ),
  );
  describe('fault matrix', () => {
    beforeAll(() => warmUp(transport), 60_000);
    it.each(cells)('$name', async ({ fault, cap, backup, expected }) => {
      const outcome = await runCell(transport, cap, fault, backup);
      if (RECORD)
        appendFileSync(RECORD, `${JSON.stringify([transport.name, fault, cap, backup, outcome])}\n`);
      expect(outcome).toBe(typeof expected === 'function' ? expected(cap) : expected);
    });
  });
}
