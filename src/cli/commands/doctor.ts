import type { ResolvedConfig, Router, RouterConfig } from 'voxroute';
import { CONFIG_OPTION, intOption, parseCommandArgs } from '../args.js';
import { loadCliConfig } from '../config-file.js';
import type { CliContext } from '../context.js';
import { EXIT_FAILURE, EXIT_OK } from '../exit-codes.js';
import { startProgress } from '../progress.js';
import type { RouteCapability } from '../router-call.js';

/** What `doctor` found for one (provider, capability). */
export interface ProbeReport {
  provider: string;
  capability: RouteCapability;
  /** The logical voice or model probed (first in the provider's config); none for stt. */
  name?: string;
  /** Probes sent and probes that succeeded. */
  samples: number;
  ok: number;
  /** Time to first chunk of the successful probes, nearest-rank quantiles, ms; null when none succeeded. */
  ttfcP50Ms: number | null;
  ttfcP99Ms: number | null;
  /** Circuit breaker state after the probes. */
  breaker: 'closed' | 'open' | 'half-open';
  /** Distinct errors, `Name CODE: first line of the message`. */
  errors: string[];
}

/** What `doctor` found for one route of the config. */
export interface RouteReport {
  route: string;
  capability: RouteCapability;
  /** Providers of the route whose probes all succeeded. */
  healthy: string[];
  ok: boolean;
}

/** The whole `doctor --json` document. */
export interface DoctorReport {
  config: string;
  probes: ProbeReport[];
  routes: RouteReport[];
  ok: boolean;
}

const CAPABILITIES: readonly RouteCapability[] = ['tts', 'stt', 'chat'];

/**
 * `voxroute doctor [-c FILE] [--samples N] [--timeout MS] [--json]`: validates the config,
 * then probes every provider x capability of it with tiny requests (`Hello.` to speak, 300 ms
 * of silence to transcribe, a one-word chat reply), `--samples` times each (default 3), one
 * at a time, each probe's first chunk within `--timeout` ms (default 5000). Prints a table of
 * time to first chunk p50/p99, breaker state and errors, then each route's healthy providers
 * (or the same as JSON with `--json`). Exits 1 when a route has no healthy provider.
 */
export async function doctorCommand(argv: readonly string[], ctx: CliContext): Promise<number> {
  const { values } = parseCommandArgs(
    'doctor',
    argv,
    { ...CONFIG_OPTION, samples: { type: 'string' }, timeout: { type: 'string' }, json: { type: 'boolean' } },
    0,
  );
  const samples = intOption('doctor', 'samples', values.samples, 3);
  const timeoutMs = intOption('doctor', 'timeout', values.timeout, 5000, 1, 2_147_483_647);
  const { file, config } = await loadCliConfig(ctx, values.config);
  const targets: { provider: string; capability: RouteCapability; name?: string }[] = [];
  for (const [provider, p] of Object.entries(config.providers)) {
    const sections = p as { tts?: { voices: object }; stt?: object; chat?: { models: object } };
    for (const capability of CAPABILITIES) {
      if (!sections[capability]) continue;
      const name =
        capability === 'tts'
          ? Object.keys(sections.tts?.voices ?? {})[0]
          : capability === 'chat'
            ? Object.keys(sections.chat?.models ?? {})[0]
            : undefined;
      targets.push({ provider, capability, ...(name ? { name } : {}) });
    }
  }
  const { createRouter } = await import('voxroute');
  const probeRoutes: RouterConfig['routes'] = {};
  for (const t of targets) {
    probeRoutes[`doctor/${t.provider}/${t.capability}`] = {
      capability: t.capability,
      providers: [t.provider],
      strategy: 'priority',
      firstChunkTimeoutMs: timeoutMs,
    };
  }
  const router = createRouter(
    { providers: config.providers, routes: probeRoutes } as unknown as RouterConfig,
    { env: ctx.env ?? process.env },
  );
  const progress = startProgress(ctx, `probing ${targets.length} provider capabilities`);
  const probes: ProbeReport[] = [];
  try {
    await router.warmup();
    for (const [i, t] of targets.entries()) {
      progress.update(`probing ${t.provider} ${t.capability} (${i + 1}/${targets.length})`);
      probes.push(await probe(router, t, samples));
    }
  } finally {
    progress.done();
    await router.close();
  }
  const routes = routeReports(config, probes);
  const report: DoctorReport = { config: file, probes, routes, ok: routes.every((r) => r.ok) };
  ctx.stdout(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return report.ok ? EXIT_OK : EXIT_FAILURE;
}

async function probe(
  router: Router,
  t: { provider: string; capability: RouteCapability; name?: string },
  samples: number,
): Promise<ProbeReport> {
  const route = `doctor/${t.provider}/${t.capability}`;
  const ttfcs: number[] = [];
  const errors = new Set<string>();
  for (let i = 0; i < samples; i++) {
    try {
      const stream =
        t.capability === 'tts'
          ? router.tts({ route, text: 'Hello.', voice: t.name as string })
          : t.capability === 'chat'
            ? router.chat({
                route,
                model: t.name as string,
                maxTokens: 5,
                messages: [{ role: 'user', content: 'Reply with OK.' }],
              })
            : router.stt({
                route,
                audio: silenceOf(300),
                format: { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 },
              });
      for await (const _ of stream as AsyncIterable<unknown>) {
        // drain
      }
      ttfcs.push((await stream.result).timeToFirstChunkMs);
    } catch (error) {
      errors.add(describeError(error));
    }
  }
  const stats = router
    .stats()
    .providers.find((s) => s.provider === t.provider && s.capability === t.capability);
  const sorted = [...ttfcs].sort((a, b) => a - b);
  return {
    provider: t.provider,
    capability: t.capability,
    ...(t.name ? { name: t.name } : {}),
    samples,
    ok: ttfcs.length,
    ttfcP50Ms: quantile(sorted, 0.5),
    ttfcP99Ms: quantile(sorted, 0.99),
    breaker: stats?.breaker ?? 'closed',
    errors: [...errors],
  };
}

async function* silenceOf(ms: number): AsyncIterable<Uint8Array> {
  yield new Uint8Array(Math.round((16_000 * ms) / 1000) * 2);
}

/** Nearest-rank quantile of sorted values, rounded to 0.1 ms; null for none. */
export function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const value = sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
  return Math.round(value * 10) / 10;
}

/** `Name CODE: message`, the innermost cause of an AllProvidersFailedError, first line only. */
function describeError(error: unknown): string {
  let e = error as {
    name?: string;
    code?: string;
    message?: string;
    attempts?: { error?: unknown }[];
  } | null;
  const only =
    e?.code === 'ALL_PROVIDERS_FAILED' && e.attempts?.length === 1 ? e.attempts[0]?.error : undefined;
  if (only !== undefined) e = only as typeof e;
  const head = [e?.name ?? 'Error', e?.code].filter(Boolean).join(' ');
  return `${head}: ${String(e?.message ?? error).split('\n')[0]}`;
}

function routeReports(config: ResolvedConfig, probes: ProbeReport[]): RouteReport[] {
  return Object.values(config.routes).map((r) => {
    const healthy = r.providers.filter((p) =>
      probes.some((x) => x.provider === p && x.capability === r.capability && x.ok === x.samples),
    );
    return { route: r.name, capability: r.capability, healthy, ok: healthy.length > 0 };
  });
}

/** The human-readable report: a table of probes, then one line per route. */
export function formatReport(report: DoctorReport): string {
  const ms = (v: number | null) => (v === null ? '-' : `${v} ms`);
  const rows = [
    ['provider', 'capability', 'ok', 'ttfc p50', 'ttfc p99', 'breaker', 'errors'],
    ...report.probes.map((p) => [
      p.provider,
      p.capability,
      `${p.ok}/${p.samples}`,
      ms(p.ttfcP50Ms),
      ms(p.ttfcP99Ms),
      p.breaker,
      p.errors.join('; ') || '-',
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const table = rows.map((r) =>
    r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  '),
  );
  const routes = report.routes.map(
    (r) =>
      `  ${r.route} (${r.capability}): ${r.ok ? `ok, healthy: ${r.healthy.join(', ')}` : 'NO HEALTHY PROVIDER'}`,
  );
  return [
    `config: ${report.config}`,
    '',
    ...table,
    '',
    'routes:',
    ...routes,
    '',
    report.ok ? 'doctor: every route has a healthy provider' : 'doctor: some routes have no healthy provider',
    '',
  ].join('\n');
}
