/**
 * The routing benchmark's plot, written as SVG text (no plotting dependency): on the left,
 * p50/p95/p99 time to first chunk per strategy as grouped bars; on the right, the tail: the
 * share of calls slower than x, both axes on a log scale.
 */
import { type Tail, tailOf } from './quantiles.js';

/** One strategy's results, as the plot shows them. */
export interface PlotSeries {
  label: string;
  /** CSS colour of its bars and line. */
  color: string;
  /** Time to first chunk of every call in ms; Infinity for a failed call. */
  ttfcMs: readonly number[];
  /** The same calls without machine noise (drawn as black ticks on the bars), when they differ. */
  scriptedMs?: readonly number[];
}

const WIDTH = 1000;
const HEIGHT = 470;
const TOP = 70;
const BOTTOM = 380;
const FONT = 'font-family="Helvetica, Arial, sans-serif"';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const r1 = (x: number) => Math.round(x * 10) / 10;

/** Renders the two panels for `series` under `title`; returns the SVG document. */
export function renderPlot(title: string, series: readonly PlotSeries[]): string {
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" ${FONT} font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${WIDTH / 2}" y="24" text-anchor="middle" font-size="16">${esc(title)}</text>`,
  );
  out.push(...bars(series, 60, 470));
  out.push(...tails(series, 560, 960));
  // Legend under both panels, three entries a row.
  series.forEach((s, i) => {
    const x = 60 + (i % 3) * 300;
    const y = HEIGHT - 52 + Math.floor(i / 3) * 22;
    out.push(
      `<rect x="${x}" y="${y}" width="14" height="14" fill="${s.color}"/>`,
      `<text x="${x + 20}" y="${y + 12}">${esc(s.label)}</text>`,
    );
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

/** Grouped bars of p50/p95/p99 (ms, linear axis) between x = left and x = right. */
function bars(series: readonly PlotSeries[], left: number, right: number): string[] {
  const out: string[] = [];
  const tails: Tail[] = series.map((s) => tailOf(s.ttfcMs));
  const ticks: Array<Tail | undefined> = series.map((s) => (s.scriptedMs ? tailOf(s.scriptedMs) : undefined));
  const finite = tails.flatMap((t) => [t.p50, t.p95, t.p99]).filter(Number.isFinite);
  const max = niceCeil(Math.max(1, ...finite));
  const y = (ms: number) => BOTTOM - (Math.min(ms, max) / max) * (BOTTOM - TOP);
  out.push(
    `<text x="${(left + right) / 2}" y="${TOP - 12}" text-anchor="middle">p50 / p95 / p99 time to first chunk (ms)${ticks.some(Boolean) ? ', black tick: without machine noise' : ''}</text>`,
  );
  for (let k = 0; k <= 5; k++) {
    const v = (max / 5) * k;
    out.push(
      `<line x1="${left}" x2="${right}" y1="${r1(y(v))}" y2="${r1(y(v))}" stroke="#ddd"/>`,
      `<text x="${left - 6}" y="${r1(y(v) + 4)}" text-anchor="end">${Math.round(v)}</text>`,
    );
  }
  const groups = ['p50', 'p95', 'p99'] as const;
  const groupWidth = (right - left) / groups.length;
  const barWidth = (groupWidth - 24) / series.length;
  groups.forEach((g, gi) => {
    const x0 = left + gi * groupWidth + 12;
    out.push(
      `<text x="${r1(x0 + (groupWidth - 24) / 2)}" y="${BOTTOM + 18}" text-anchor="middle">${g}</text>`,
    );
    series.forEach((s, si) => {
      const v = tails[si]![g];
      const x = x0 + si * barWidth;
      const top = Number.isFinite(v) ? y(v) : TOP;
      out.push(
        `<rect x="${r1(x)}" y="${r1(top)}" width="${r1(barWidth - 2)}" height="${r1(BOTTOM - top)}" fill="${s.color}"/>`,
        `<text x="${r1(x + (barWidth - 2) / 2)}" y="${r1(top - 3)}" text-anchor="middle" font-size="9">${Number.isFinite(v) ? Math.round(v) : 'fail'}</text>`,
      );
      const tick = ticks[si]?.[g];
      if (tick !== undefined && Number.isFinite(tick) && Math.abs(tick - v) >= 0.5) {
        out.push(
          `<line x1="${r1(x)}" x2="${r1(x + barWidth - 2)}" y1="${r1(y(tick))}" y2="${r1(y(tick))}" stroke="black" stroke-width="2"/>`,
        );
      }
    });
  });
  out.push(`<line x1="${left}" x2="${right}" y1="${BOTTOM}" y2="${BOTTOM}" stroke="#333"/>`);
  return out;
}

/**
 * Tail lines: the share of calls slower than x (log y, from 1 down to 1/n), against x = time to
 * first chunk (log x, ms), between x = left and x = right. Failed calls stay "slower" forever.
 */
function tails(series: readonly PlotSeries[], left: number, right: number): string[] {
  const out: string[] = [];
  const all = series.flatMap((s) => s.ttfcMs.filter(Number.isFinite));
  const n = Math.max(...series.map((s) => s.ttfcMs.length));
  const lo = 10 ** Math.floor(Math.log10(Math.max(1, Math.min(...all))));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...all)));
  const yMin = 10 ** Math.floor(Math.log10(1 / n));
  const x = (ms: number) =>
    left + ((Math.log10(ms) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * (right - left);
  const y = (share: number) =>
    TOP + (-Math.log10(Math.max(share, yMin)) / -Math.log10(yMin)) * (BOTTOM - TOP);
  out.push(
    `<text x="${(left + right) / 2}" y="${TOP - 12}" text-anchor="middle">share of calls slower than x ms (log-log)</text>`,
  );
  for (let share = 1; share >= yMin; share /= 10) {
    out.push(
      `<line x1="${left}" x2="${right}" y1="${r1(y(share))}" y2="${r1(y(share))}" stroke="#ddd"/>`,
      `<text x="${left - 6}" y="${r1(y(share) + 4)}" text-anchor="end">${share >= 0.01 ? share : share.toExponential(0)}</text>`,
    );
  }
  for (let decade = lo; decade <= hi; decade *= 10) {
    for (const m of [1, 2, 5]) {
      const v = decade * m;
      if (v > hi) break;
      out.push(
        `<line x1="${r1(x(v))}" x2="${r1(x(v))}" y1="${TOP}" y2="${BOTTOM}" stroke="#eee"/>`,
        `<text x="${r1(x(v))}" y="${BOTTOM + 18}" text-anchor="middle">${v}</text>`,
      );
    }
  }
  for (const s of series) {
    const sorted = [...s.ttfcMs].sort((p, q) => p - q);
    const count = sorted.length;
    const points: string[] = [];
    sorted.forEach((v, i) => {
      if (!Number.isFinite(v)) return;
      // Just below v, (count - i) calls are slower than x; just above it, (count - i - 1).
      const before = (count - i) / count;
      const after = (count - i - 1) / count;
      points.push(`${r1(x(v))},${r1(y(before))}`);
      if (after > 0) points.push(`${r1(x(v))},${r1(y(after))}`);
    });
    out.push(`<polyline fill="none" stroke="${s.color}" stroke-width="1.8" points="${points.join(' ')}"/>`);
  }
  out.push(
    `<line x1="${left}" x2="${right}" y1="${BOTTOM}" y2="${BOTTOM}" stroke="#333"/>`,
    `<line x1="${left}" x2="${left}" y1="${TOP}" y2="${BOTTOM}" stroke="#333"/>`,
  );
  return out;
}

/** The smallest 1, 2 or 5 x 10^k at or above `v`. */
function niceCeil(v: number): number {
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}
