/** Prints what each stage of the demo's voice turn did. */
import type { RouteResult } from 'voxroute';

const ms = (v: number | undefined) => (v === undefined ? '-' : `${v.toFixed(1)} ms`);

/** One stage as lines of text: provider, attempts (with each failure), TTFC and duration. */
export function describeStage(stage: string, result: RouteResult): string[] {
  const lines = [
    `${stage.toUpperCase().padEnd(4)} served by ${result.provider || '(none)'}: first chunk ${ms(result.timeToFirstChunkMs)} after the call started, done after ${ms(result.durationMs)}`,
  ];
  if (stage === 'stt') {
    lines.push(
      "       (the call includes sending the audio; an attempt's first chunk counts from the end of the audio)",
    );
  }
  for (const [i, attempt] of result.attempts.entries()) {
    const why = attempt.error instanceof Error ? ` (${attempt.error.message})` : '';
    const ttfc =
      attempt.timeToFirstChunkMs === undefined ? '' : `, first chunk ${ms(attempt.timeToFirstChunkMs)}`;
    lines.push(`       attempt ${i + 1}: ${attempt.provider} ${attempt.outcome}${ttfc}${why}`);
  }
  return lines;
}
