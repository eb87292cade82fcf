/** The demo's per-turn timeline: a text table and an SVG chart. */
import type { RouteResult, TurnResult } from 'voxroute';

const f = (v: number | undefined) => (v === undefined ? '-' : v.toFixed(0));

/** Who served a stage, with the providers that failed before it (`a!>b`). */
export function served(result: RouteResult | undefined): string {
  if (!result) return '-';
  // In order: each failed attempt marked `!`, then whoever spoke (the provider that took over
  // keeps the rest of the reply, unless it fails too). Hedge losers are left out.
  const spoke = result.attempts
    .filter((x) => x.outcome === 'failed' || x.outcome === 'success')
    .map((x) => (x.outcome === 'failed' ? `${x.provider}!` : x.provider));
  if (spoke.at(-1) !== result.provider) spoke.push(result.provider);
  return spoke.join('>');
}

/**
 * One row per turn: ms from end of speech to each step, who served each stage, voxroute's
 * share. `numbers`: each turn's number in the conversation (default 1, 2, ...).
 */
export function timelineTable(turns: TurnResult[], numbers: number[] = turns.map((_, i) => i + 1)): string {
  const header = ['turn', 'final', 'token', 'clause', 'audio', 'own', 'stt', 'chat', 'tts'];
  const rows = turns.map((r, i) => {
    const t = r.timeline;
    const from = (v: number | undefined) => (v === undefined ? undefined : v - t.endOfSpeechMs);
    return [
      String(numbers[i] ?? i + 1),
      f(from(t.finalTranscriptMs)),
      f(from(t.firstTokenMs)),
      f(from(t.firstClauseMs)),
      f(from(t.firstAudioMs)),
      t.ownMs.toFixed(1),
      served(r.stages.stt),
      served(r.stages.chat),
      served(r.stages.tts),
    ];
  });
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (cells: string[]) => cells.map((x, c) => x.padEnd(widths[c]!)).join('  ');
  return [
    "ms from end of speech; own = voxroute's share of it; a!>b = a failed, then b served; a!>b>a = b stood in for what a failed, then a served the rest",
    line(header),
    ...rows.map(line),
  ].join('\n');
}

/**
 * An SVG chart: one bar per turn from end of speech to first audio, one colour per stage.
 * `numbers`: each turn's number in the conversation (default 1, 2, ...).
 */
export function timelineSvg(turns: TurnResult[], numbers: number[] = turns.map((_, i) => i + 1)): string {
  const scale = 1.2; // px per ms
  const rowH = 34;
  const left = 70;
  const spans = turns.map((r) => {
    const t = r.timeline;
    const e = t.endOfSpeechMs;
    return [
      ['stt', e, t.finalTranscriptMs, '#4e79a7'],
      ['chat', t.finalTranscriptMs, t.firstTokenMs, '#f28e2b'],
      ['llm', t.firstTokenMs, t.firstClauseMs, '#e15759'],
      ['tts', t.firstClauseMs, t.firstAudioMs, '#59a14f'],
    ].map(([name, from, to, colour]) => ({
      name: name as string,
      from: (from as number) - e,
      to: to === undefined ? undefined : (to as number) - e,
      colour: colour as string,
    }));
  });
  const maxMs = Math.max(100, ...spans.flat().map((s) => s.to ?? 0));
  const width = left + maxMs * scale + 60;
  const height = turns.length * rowH + 50;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width.toFixed(0)}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<text x="8" y="16">voxroute voice turns: end of speech to first audio (ms)</text>`,
  ];
  spans.forEach((row, i) => {
    const y = 30 + i * rowH;
    parts.push(`<text x="8" y="${y + 15}">turn ${numbers[i] ?? i + 1}</text>`);
    for (const s of row) {
      if (s.to === undefined || s.to < s.from) continue;
      const x = left + s.from * scale;
      const w = Math.max(1, (s.to - s.from) * scale);
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="20" fill="${s.colour}"><title>${s.name}: ${(s.to - s.from).toFixed(0)} ms</title></rect>`,
      );
    }
    const end = row[row.length - 1]!.to;
    if (end !== undefined)
      parts.push(
        `<text x="${(left + end * scale + 4).toFixed(1)}" y="${y + 15}">${end.toFixed(0)} ms</text>`,
      );
  });
  const legendY = 30 + turns.length * rowH + 8;
  ['stt', 'chat', 'llm', 'tts'].forEach((name, i) => {
    const colour = ['#4e79a7', '#f28e2b', '#e15759', '#59a14f'][i];
    parts.push(`<rect x="${left + i * 90}" y="${legendY}" width="12" height="12" fill="${colour}"/>`);
    parts.push(`<text x="${left + i * 90 + 16}" y="${legendY + 10}">${name}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n');
}
