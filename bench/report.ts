// Turns a benchmark run into docs/performance.md: the ratios against the baseline, the scaling from ten
// thousand to a million contacts, REST against GraphQL, and each target met or not.
import { writeFileSync } from 'node:fs';
import type { LoadResult } from './load.js';

export type ScaleResults = {
  contacts: number;
  service: Record<string, LoadResult>;
  baseline: Record<string, LoadResult>;
  graphql: Record<string, LoadResult>;
};

export type BenchReport = {
  date: string;
  commit: string;
  machine: { cpus: number; cpu_model: string; memory_gb: number; node: string };
  settings: { seconds: number; connections: number; messages_per_conversation: number };
  service_max_rss_mb: number;
  scales: ScaleResults[];
  extra?: Record<string, unknown>;
};

const ratio = (a: number, b: number) => (b === 0 ? 'n/a' : (a / b).toFixed(2));
const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');
/** A load with errors or non-2xx answers measured something else than the read: its numbers do not count. */
const failed = (result: LoadResult | undefined) => !result || result.errors > 0 || result.non2xx > 0;

export function writeReport(report: BenchReport, path: string): void {
  const small = report.scales[0]!;
  const large = report.scales.at(-1)!;
  const lines: string[] = [
    '# Performance',
    '',
    `Run ${report.date} at commit ${report.commit} on ${report.machine.cpus} × ${report.machine.cpu_model}, ${report.machine.memory_gb} GiB, Node ${report.machine.node}.`,
    `Each row: autocannon, ${report.settings.connections} connections for ${report.settings.seconds} s, load generator, service, baseline and PostgreSQL on the same machine.`,
    'Reproduce with `npm run bench` (README, "Benchmarks"). Raw numbers: `bench/results/`.',
    '',
    '## Service against the raw baseline (node:http + pg, hand-written SQL)',
    '',
    '| scale | read | service req/s | baseline req/s | throughput ratio | service p99 ms | baseline p99 ms | p99 ratio |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const scale of report.scales) {
    for (const [name, base] of Object.entries(scale.baseline)) {
      const service = scale.service[name]!;
      lines.push(`| ${scale.contacts} | ${name} | ${service.requests_per_sec} | ${base.requests_per_sec} | ${ratio(service.requests_per_sec, base.requests_per_sec)} | ${service.p99_ms} | ${base.p99_ms} | ${ratio(service.p99_ms, base.p99_ms)} |`);
    }
  }
  lines.push('', '## Every read of the service', '', '| scale | read | req/s | p50 ms | p99 ms | errors | non-2xx |', '|---|---|---|---|---|---|---|');
  for (const scale of report.scales) {
    for (const [name, result] of Object.entries(scale.service)) {
      lines.push(`| ${scale.contacts} | REST ${name} | ${result.requests_per_sec} | ${result.p50_ms} | ${result.p99_ms} | ${result.errors} | ${result.non2xx} |`);
    }
    for (const [name, result] of Object.entries(scale.graphql)) {
      lines.push(`| ${scale.contacts} | GraphQL ${name} | ${result.requests_per_sec} | ${result.p50_ms} | ${result.p99_ms} | ${result.errors} | ${result.non2xx} |`);
    }
  }
  const targets: [string, boolean, string][] = [];
  for (const name of ['contacts_list', 'contacts_get']) {
    const r = large.service[name]!.requests_per_sec / Math.max(1, large.baseline[name]!.requests_per_sec);
    targets.push([`${name} throughput ≥ 0.5 × baseline at ${large.contacts}`, r >= 0.5, r.toFixed(2)]);
  }
  for (const name of ['contacts_search_name', 'contacts_search_phone', 'contacts_search_email']) {
    const p50 = large.service[name]!.p50_ms;
    targets.push([`${name} p50 < 20 ms at ${large.contacts}`, p50 < 20, `${p50} ms`]);
  }
  for (const name of ['contacts_list', 'contacts_search_name', 'contacts_get']) {
    const r = large.service[name]!.p99_ms / Math.max(1, small.service[name]!.p99_ms);
    targets.push([`${name} p99 at ${large.contacts} ≤ 1.5 × p99 at ${small.contacts}`, r <= 1.5, r.toFixed(2)]);
  }
  for (const name of Object.keys(large.graphql)) {
    const r = large.service[name]!.requests_per_sec / Math.max(1, large.graphql[name]!.requests_per_sec);
    targets.push([`REST ${name} within 15% of GraphQL`, r >= 0.85, r.toFixed(2)]);
  }
  targets.push([`resident memory under load < 300 MB`, report.service_max_rss_mb < 300, `${report.service_max_rss_mb} MB`]);
  const invalid = report.scales.flatMap((scale) =>
    [...Object.entries(scale.service), ...Object.entries(scale.baseline).map(([name, result]) => [`baseline ${name}`, result] as const), ...Object.entries(scale.graphql).map(([name, result]) => [`GraphQL ${name}`, result] as const)]
      .filter(([, result]) => failed(result))
      .map(([name]) => `${name} at ${scale.contacts}`),
  );
  lines.push('', '## Targets', '');
  if (invalid.length > 0) lines.push(`**This run is invalid**: errors or non-2xx answers in ${invalid.join(', ')}; no target is judged.`, '');
  lines.push('| target | measured | verdict |', '|---|---|---|');
  for (const [target, ok, measured] of targets) lines.push(`| ${target} | ${measured} | ${invalid.length > 0 ? 'not judged' : verdict(ok)} |`);
  writeFileSync(path, `${lines.join('\n')}\n`);
}
