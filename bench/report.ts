// Turns a benchmark run into docs/performance.md: the ratios against the baseline, the scaling from ten
// thousand to a million contacts (and to a third scale when the run has one), REST against the same query through GraphQL, one client's latency, sends,
// webhook fan-out, and each target met or not.
import { writeFileSync } from 'node:fs';
import type { LoadResult } from './load.js';
import type { FanOutResult } from './webhooks.js';
import type { ProfileResult } from './profile.js';
import type { SubscribersResult } from './subscribers.js';
import type { SearchClass, SearchedList } from './searchTerms.js';
import type { EmbeddedLoadResult, StartResult } from './startup.js';
import { storageLines, type StorageResult } from './storage.js';

export type ScaleResults = {
  contacts: number;
  /** Each read through REST, under `connections` concurrent clients. */
  service: Record<string, LoadResult>;
  baseline: Record<string, LoadResult>;
  /** The same selection and arguments through /graphql. */
  graphql: Record<string, LoadResult>;
  /** Each REST read with one client: latency without queueing. */
  latency: Record<string, LoadResult>;
  /** The first request of each read at this scale, in ms, before any load on it (reports: computing kept days). */
  first?: Record<string, number>;
  /** Search of each list by kind of term (bench/searchTerms.ts), one client cycling through the terms. */
  searches?: Partial<Record<SearchedList, Partial<Record<SearchClass, LoadResult & { terms: string[] }>>>>;
};

export type BenchReport = {
  date: string;
  commit: string;
  machine: { cpus: number; cpu_model: string; memory_gb: number; node: string };
  settings: { seconds: number; connections: number; latency_seconds: number; messages_per_conversation: number };
  service_max_rss_mb: number;
  scales: ScaleResults[];
  sends: LoadResult;
  webhooks: FanOutResult;
  /** GraphQL SSE subscribers of one workspace receiving inbound messages (bench/subscribers.ts); absent in older runs. */
  subscribers?: SubscribersResult;
  /** `npm start` to the first 200 and the idle memory after it (bench/startup.ts); absent in older runs. */
  starts?: StartResult[];
  /** The service on the embedded database under the reads' load; absent in older runs. */
  embedded?: EmbeddedLoadResult;
  /** CPU profiles of the service under single reads (bench/profile.ts). */
  profiles: ProfileResult[];
  /** The bench database's size, and its tables' and indexes' (bench/storage.ts); absent in older runs. */
  storage?: StorageResult;
};

/** A first request's time; -1 is one that failed (bench/run.ts). */
const firstRequest = (ms: number | undefined) => (ms === undefined ? '–' : ms < 0 ? 'failed' : String(ms));
const ratio = (a: number, b: number) => (b === 0 ? 'n/a' : (a / b).toFixed(2));
const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');
/** A load with errors or non-2xx answers measured something else than the read, and one that no answer ended within
 * its seconds measured nothing: its numbers do not count. */
const failed = (result: LoadResult | undefined) => !result || result.total === 0 || result.errors > 0 || result.non2xx > 0;
/** What a failed load's measured value is followed by in the targets' table. */
const failures = (result: LoadResult) =>
  failed(result) ? ` (${result.total === 0 ? 'no answer' : `${result.errors} errors, ${result.non2xx} non-2xx`})` : '';
/** The scale the million-contact targets and the CPU profiles are about: the second, or the only one. */
const largeScale = (report: BenchReport) => report.scales[1] ?? report.scales[0]!;

/** The loads whose errors invalidate the run: every one but the third scale's, whose targets count a failed load as
 * not met (a read failing at ten million contacts says so, and takes nothing away from the other scales). */
function loadsOf(report: BenchReport): [string, LoadResult][] {
  const loads: [string, LoadResult][] = [['POST /messages', report.sends]];
  for (const scale of report.scales.slice(0, 2)) {
    for (const kind of ['service', 'baseline', 'graphql', 'latency'] as const) {
      for (const [name, result] of Object.entries(scale[kind])) loads.push([`${kind} ${name} at ${scale.contacts}`, result]);
    }
    for (const [list, byKind] of Object.entries(scale.searches ?? {})) {
      for (const [kind, result] of Object.entries(byKind)) loads.push([`${list} search, ${kind} terms, at ${scale.contacts}`, result]);
    }
  }
  return loads;
}

function targetsOf(report: BenchReport): [string, boolean, string][] {
  const small = report.scales[0]!;
  const large = largeScale(report);
  // A third scale (BENCH_HUGE_CONTACTS) is judged against the large one: its reads' p99 and its searches.
  const huge = report.scales[2];
  const searched = huge ? [large, huge] : [large];
  const targets: [string, boolean, string][] = [];
  for (const scale of [small, large]) {
    // Issue 39: reads within reach of the floor; searches under load at least 0.6 of the baseline's.
    for (const name of Object.keys(scale.baseline)) {
      const r = scale.service[name]!.requests_per_sec / Math.max(1, scale.baseline[name]!.requests_per_sec);
      const search = name.startsWith('contacts_search');
      targets.push([`${name} throughput ≥ ${search ? 0.6 : 0.8} × baseline at ${scale.contacts}`, r >= (search ? 0.6 : 0.8), r.toFixed(2)]);
      if (search) continue;
      const p99 = scale.service[name]!.p99_ms / Math.max(1, scale.baseline[name]!.p99_ms);
      targets.push([`${name} p99 ≤ 1.5 × the baseline's at ${scale.contacts}`, p99 <= 1.5, p99.toFixed(2)]);
    }
  }
  for (const scale of searched) {
    for (const name of ['contacts_search_name', 'contacts_search_phone', 'contacts_search_email']) {
      const p50 = scale.latency[name]!.p50_ms;
      targets.push([`${name} p50 < 10 ms at ${scale.contacts} (one client)`, p50 < 10, `${p50} ms`]);
    }
  }
  for (const name of ['contacts_list', 'contacts_search_name', 'contacts_search_phone', 'contacts_search_email', 'contacts_get']) {
    const r = large.service[name]!.p99_ms / Math.max(1, small.service[name]!.p99_ms);
    targets.push([`${name} p99 at ${large.contacts} ≤ 1.5 × p99 at ${small.contacts}`, r <= 1.5, r.toFixed(2)]);
  }
  for (const [name, result] of Object.entries(huge?.service ?? {})) {
    const r = result.p99_ms / Math.max(1, large.service[name]!.p99_ms);
    targets.push([
      `${name} p99 at ${huge!.contacts} ≤ 1.5 × p99 at ${large.contacts}`,
      !failed(result) && r <= 1.5,
      `${r.toFixed(2)}${failures(result)}`,
    ]);
  }
  for (const scale of searched) {
    for (const [list, byKind] of Object.entries(scale.searches ?? {})) {
      for (const [kind, result] of Object.entries(byKind)) {
        targets.push([
          `${list} search, ${kind} terms, at ${scale.contacts} contacts: p50 < 10 ms and p99 < 50 ms (one client)`,
          !failed(result) && result.p50_ms < 10 && result.p99_ms < 50,
          `${result.p50_ms} / ${result.p99_ms} ms${failures(result)}`,
        ]);
      }
    }
  }
  const messagesRead = 'conversation_messages';
  if (large.service[messagesRead] && small.service[messagesRead]) {
    const perConversation = report.settings.messages_per_conversation;
    const r = large.service[messagesRead].p99_ms / Math.max(1, small.service[messagesRead].p99_ms);
    targets.push([
      `a conversation's messages: p99 at ${large.contacts * perConversation} messages ≤ 1.5 × p99 at ${small.contacts * perConversation}`,
      r <= 1.5,
      r.toFixed(2),
    ]);
  }
  const reports = large.latency['reports_year_by_day'];
  if (reports) {
    targets.push([
      `reportConversations, a year by day, at ${large.contacts} contacts: p99 < 300 ms (one client)`,
      !failed(reports) && reports.p99_ms < 300,
      `${reports.p99_ms} ms`,
    ]);
  }
  for (const name of Object.keys(large.graphql)) {
    const r = large.service[name]!.requests_per_sec / Math.max(1, large.graphql[name]!.requests_per_sec);
    targets.push([`REST ${name} throughput within 15% of the same query through /graphql`, r >= 0.85, r.toFixed(2)]);
  }
  const webhooks = report.webhooks;
  const complete = webhooks.deliveries === webhooks.events * webhooks.subscriptions;
  targets.push([
    'webhook delivery ≥ 1000 events/s to a local receiver',
    complete && webhooks.deliveries_per_sec >= 1000,
    `${webhooks.deliveries_per_sec}/s${complete ? '' : ` (only ${webhooks.deliveries} of ${webhooks.events * webhooks.subscriptions} delivered)`}`,
  ]);
  const live = report.subscribers;
  if (live) {
    const complete = live.deliveries === live.subscribers * live.messages;
    targets.push([
      `an inbound message reaches ${live.subscribers} SSE subscribers with p99 < 250 ms`,
      complete && live.p99_ms < 250,
      `${live.p99_ms} ms${complete ? '' : ` (only ${live.deliveries} of ${live.subscribers * live.messages} delivered)`}`,
    ]);
  }
  const sends = report.sends;
  targets.push([
    'POST /messages ≥ 400 req/s with p99 < 150 ms (sandbox provider)',
    sends.requests_per_sec >= 400 && sends.p99_ms < 150,
    `${sends.requests_per_sec} req/s, p99 ${sends.p99_ms} ms`,
  ]);
  targets.push(['resident memory under load < 220 MB (PostgreSQL)', report.service_max_rss_mb < 220, `${report.service_max_rss_mb} MB`]);
  if (report.embedded) {
    targets.push([
      'resident memory under load < 280 MB (embedded database)',
      report.embedded.max_rss_mb < 280,
      `${report.embedded.max_rss_mb} MB`,
    ]);
  }
  for (const start of report.starts ?? []) {
    const limit = start.kind.includes('first start') ? 3 : 1.5;
    targets.push([`npm start to the first 200, ${start.kind}: < ${limit} s`, start.seconds < limit, `${start.seconds} s`]);
    if (start.kind.startsWith('PostgreSQL'))
      targets.push(['resident memory idle after start < 130 MB (PostgreSQL)', start.idle_rss_mb < 130, `${start.idle_rss_mb} MB`]);
  }
  return targets;
}

/** `analysis`: what holds back each target not met, with the profile (bench/analysis.md, kept by hand). */
export function writeReport(report: BenchReport, path: string, analysis = ''): void {
  const s = report.settings;
  const lines: string[] = [
    '# Performance',
    '',
    `Run ${report.date} at commit ${report.commit} on ${report.machine.cpus} × ${report.machine.cpu_model}, ${report.machine.memory_gb} GiB, Node ${report.machine.node}.`,
    `Load: autocannon over HTTPS, ${s.connections} connections for ${s.seconds} s per row (latency rows: one connection for ${s.latency_seconds} s);`,
    'load generator, service (`dist/main.js`, as `npm start` runs it), baseline and PostgreSQL share the machine.',
    'Reproduce with `npm run bench` (README, "Benchmarks"). Raw numbers: `bench/results/`.',
    '',
    '## Service against the raw baseline (node:https + pg, hand-written SQL)',
    '',
    '| contacts | read | service req/s | baseline req/s | throughput ratio | service p99 ms | baseline p99 ms | p99 ratio |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const scale of report.scales) {
    for (const [name, base] of Object.entries(scale.baseline)) {
      const service = scale.service[name]!;
      lines.push(
        `| ${scale.contacts} | ${name} | ${service.requests_per_sec} | ${base.requests_per_sec} | ${ratio(service.requests_per_sec, base.requests_per_sec)} | ${service.p99_ms} | ${base.p99_ms} | ${ratio(service.p99_ms, base.p99_ms)} |`,
      );
    }
  }
  lines.push(
    '',
    '## Every read: REST, the same query through /graphql, and one client',
    '',
    '| contacts | read | first request ms | REST req/s | REST p50 / p99 ms | GraphQL req/s | GraphQL p50 / p99 ms | REST ÷ GraphQL | one client p50 / p99 ms |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  for (const scale of report.scales) {
    for (const [name, rest] of Object.entries(scale.service)) {
      const graphql = scale.graphql[name]!;
      const single = scale.latency[name]!;
      lines.push(
        `| ${scale.contacts} | ${name} | ${firstRequest(scale.first?.[name])} | ${rest.requests_per_sec} | ${rest.p50_ms} / ${rest.p99_ms} | ${graphql.requests_per_sec} | ${graphql.p50_ms} / ${graphql.p99_ms} | ${ratio(rest.requests_per_sec, graphql.requests_per_sec)} | ${single.p50_ms} / ${single.p99_ms} |`,
      );
    }
  }
  if (report.scales.some((scale) => scale.searches)) {
    lines.push(
      '',
      `## Search by kind of term (one client cycling through the terms; ${report.settings.messages_per_conversation} messages per contact)`,
      '',
      '| contacts | list | kind | terms | p50 ms | p99 ms | requests |',
      '|---|---|---|---|---|---|---|',
    );
    for (const scale of report.scales) {
      for (const [list, byKind] of Object.entries(scale.searches ?? {})) {
        for (const [kind, result] of Object.entries(byKind)) {
          const terms = result.terms.map((term) => `\`${term}\``).join(', ');
          lines.push(`| ${scale.contacts} | ${list} | ${kind} | ${terms} | ${result.p50_ms} | ${result.p99_ms} | ${result.total} |`);
        }
      }
    }
  }
  const w = report.webhooks;
  lines.push(
    '',
    '## Writes and webhooks',
    '',
    `- POST /messages (a template message, sandbox provider): ${report.sends.requests_per_sec} req/s, p50 ${report.sends.p50_ms} ms, p99 ${report.sends.p99_ms} ms.`,
    `- Webhook fan-out: ${w.events} message.status events to ${w.subscriptions} subscriptions of one local HTTPS receiver: ${w.deliveries} deliveries in ${w.seconds} s, **${w.deliveries_per_sec} deliveries/s**, ${w.duplicates} duplicates.`,
    `- Service resident memory, highest sample during the reads and sends: ${report.service_max_rss_mb} MB.`,
  );
  if (report.embedded) {
    const e = report.embedded;
    const reads = Object.entries(e.reads)
      .map(([name, result]) => `${name} ${result.requests_per_sec} req/s (p99 ${result.p99_ms} ms)`)
      .join(', ');
    lines.push(
      `- The embedded database (PGlite, ${e.contacts} contacts): resident memory ${e.idle_rss_mb} MB idle, at most ${e.max_rss_mb} MB under ${s.connections} connections of ${reads}.`,
    );
  }
  if (report.starts) {
    lines.push(
      '',
      '## Start and idle memory (`npm start`, as a person runs it)',
      '',
      '| start | to the first 200 on /health | resident memory 30 s later |',
      '|---|---|---|',
    );
    for (const start of report.starts) lines.push(`| ${start.kind} | ${start.seconds} s | ${start.idle_rss_mb} MB |`);
  }
  const live = report.subscribers;
  if (live) {
    lines.push(
      `- Live updates: ${live.subscribers} GraphQL SSE subscribers (\`messageCreated\`) of one workspace, ${live.messages} signed inbound webhooks one after another: ${live.deliveries} deliveries, from the provider's POST to each subscriber p50 ${live.p50_ms} ms, p99 ${live.p99_ms} ms, max ${live.max_ms} ms; the service's memory per idle subscriber ${live.memory_per_subscriber_kb} KB.`,
    );
  }
  if (report.storage) {
    lines.push('', '## Storage (every workspace of the bench database, after the run)', '', ...storageLines(report.storage));
  }
  lines.push('', '## Where the service spends its CPU', '');
  for (const profile of report.profiles) {
    lines.push(
      `\`${profile.read}\` at ${largeScale(report).contacts} contacts, ${profile.requests} requests: ${profile.cpu_ms_per_request} ms of service CPU per request (the process busy ${profile.busy_percent}% of the time; the rest of the two cores is PostgreSQL and the load generator).`,
      '',
      "| part | share of the service's CPU |",
      '|---|---|',
      ...profile.shares.filter((share) => share.percent >= 0.5).map((share) => `| ${share.part} | ${share.percent}% |`),
      '',
    );
  }
  const invalid = loadsOf(report)
    .filter(([, result]) => failed(result))
    .map(([name, result]) => `${name}${failures(result)}`);
  lines.push('', '## Targets', '');
  if (invalid.length > 0)
    lines.push(`**This run is invalid**: loads that failed or got no answer: ${invalid.join(', ')}; no target is judged.`, '');
  lines.push('| target | measured | verdict |', '|---|---|---|');
  for (const [target, ok, measured] of targetsOf(report))
    lines.push(`| ${target} | ${measured} | ${invalid.length > 0 ? 'not judged' : verdict(ok)} |`);
  if (analysis) lines.push('', analysis.trim());
  writeFileSync(path, `${lines.join('\n')}\n`);
}
