// Counts the functions V8 optimised with TurboFan during a run, by where their code comes from
// (voxroute's build, undici, Node's own modules, anything else) and by time, from a V8 code log.
// A diagnostic for P1's p99 (docs/benchmarks.md, "P1 p99: where the router's tail came from"):
// each optimisation is a compile job on a V8 background thread, and while the router's code is
// still warming up those jobs take CPU from the calls being measured.
//
//   node --log-code --logfile=/tmp/v8.log --no-logfile-per-isolate scripts/run-ts.mjs bench/overhead.ts --dist
//   node bench/jit-jobs.mjs /tmp/v8.log [bucket seconds, default 2] [voxroute file pattern, default dist/index.js] [marks file]
//
// With a marks file (the `=== NAME @MS` lines that bench/switch-probe.ts prints, performance.now()
// ms), it also prints the jobs of each section, from one mark to the next (the log's times are
// µs from V8's start and performance.now() counts from the process's: the same origin within
// a few ms).
//
// The log's `code-creation,JS,<kind>,<µs>,<address>,<size>,<name url:line:col>,<sfi>,<tier>` lines
// with tier `*` are TurboFan code (`^` is Sparkplug, `~` the interpreter).
import { readFileSync } from 'node:fs';

const [file, bucketArg = '2', pattern = 'dist/index.js', marksFile] = process.argv.slice(2);
const USAGE =
  'usage: node bench/jit-jobs.mjs V8_LOG [BUCKET_SECONDS (default 2)] [VOXROUTE_FILE_PATTERN (default dist/index.js)] [MARKS_FILE]\n';
if (file === '--help' || file === '-h') {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (!file || file.startsWith('-')) {
  process.stderr.write(USAGE);
  process.exit(2);
}
const bucketUs = Number(bucketArg) * 1e6;
const origins = ['voxroute', 'undici', 'node', 'other'];
/** bucket index -> origin -> [count, bytes] */
const table = new Map();
/** Sections from a marks file: [name, from µs, to µs, origin -> [count, bytes]]. */
const marks = marksFile
  ? [...readFileSync(marksFile, 'utf8').matchAll(/^=== (\S+) @([\d.]+)$/gm)].map((m) => [
      m[1],
      Number(m[2]) * 1e3,
    ])
  : [];
const sections = marks
  .slice(0, -1)
  .map(([name, from], i) => [
    name,
    from,
    marks[i + 1][1],
    Object.fromEntries(origins.map((o) => [o, [0, 0]])),
  ]);
for (const line of readFileSync(file, 'utf8').split('\n')) {
  if (!line.startsWith('code-creation,JS,') || !line.endsWith(',*')) continue;
  const fields = line.split(',');
  const at = Number(fields[3]);
  const size = Number(fields[5]);
  const name = fields.slice(6, -2).join(',');
  const origin = name.includes(pattern)
    ? 'voxroute'
    : name.includes('undici')
      ? 'undici'
      : name.includes('node:')
        ? 'node'
        : 'other';
  const bucket = Math.floor(at / bucketUs);
  const row = table.get(bucket) ?? Object.fromEntries(origins.map((o) => [o, [0, 0]]));
  row[origin][0]++;
  row[origin][1] += size;
  table.set(bucket, row);
  for (const [, from, to, counts] of sections) {
    if (at < from || at >= to) continue;
    counts[origin][0]++;
    counts[origin][1] += size;
  }
}
console.log(
  `TurboFan code objects by origin (count, KB of code), ${bucketArg} s buckets from the log's start`,
);
console.log(`${'from (s)'.padEnd(10)}${origins.map((o) => o.padStart(16)).join('')}`);
for (const bucket of [...table.keys()].sort((a, b) => a - b)) {
  const row = table.get(bucket);
  const cells = origins.map((o) => `${row[o][0]} (${(row[o][1] / 1024).toFixed(0)})`.padStart(16));
  console.log(`${String((bucket * bucketUs) / 1e6).padEnd(10)}${cells.join('')}`);
}
if (sections.length > 0) {
  console.log('\nBy section (count, KB of code)');
  console.log(`${'section'.padEnd(10)}${origins.map((o) => o.padStart(16)).join('')}`);
  for (const [name, , , counts] of sections) {
    const cells = origins.map((o) => `${counts[o][0]} (${(counts[o][1] / 1024).toFixed(0)})`.padStart(16));
    console.log(`${name.padEnd(10)}${cells.join('')}`);
  }
}
