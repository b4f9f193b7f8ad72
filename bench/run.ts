// `npm run bench`: seeds PostgreSQL with the benchmark data set (resumable), starts the real service and
// a raw node:http + pg baseline, drives both with autocannon, and writes bench/results/<stamp>.json and
// docs/performance.md (a quick run: bench/results/<stamp>-quick.json and .md). Settings: BENCH_DATABASE_URL, BENCH_CONTACTS, BENCH_SMALL_CONTACTS, BENCH_HUGE_CONTACTS, BENCH_EMBEDDED_CONTACTS, BENCH_SECONDS,
// BENCH_CONNECTIONS, BENCH_LATENCY_SECONDS, BENCH_WEBHOOK_EVENTS, BENCH_WEBHOOK_SUBSCRIPTIONS, BENCH_SUBSCRIBERS,
// BENCH_LIVE_MESSAGES (README, "Benchmarks").
import { execSync } from 'node:child_process';
import { request as httpsRequest } from 'node:https';
import { cpus, totalmem } from 'node:os';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { openDatabase } from '../infra/db/database.js';
import { migrate } from '../infra/db/migrate.js';
import { createSecretBox } from '../infra/crypto/secrets.js';
import { createWorkspace } from '../resolvers/workspace/workspaces.js';
import { createApiKey } from '../resolvers/workspace/apiKeys.js';
import { ALL_KEY_SCOPES } from '../resolvers/workspace/scopes.js';
import { seedBenchData, type SeedPlan } from './seed.js';
import { keepEndedDays } from '../resolvers/reports/dayKeeper.js';
import { measureStorage, storageLines } from './storage.js';
import { startProcess, startService, type Server } from './servers.js';
import { measure, type LoadResult } from './load.js';
import { readsFor, restPath, type Read } from './reads.js';
import { SEARCH_CLASSES, SEARCHED_LISTS, type SearchedList, searchTermsFor } from './searchTerms.js';
import { measureFanOut, startReceiver, type FanOutResult } from './webhooks.js';
import { profileRead, type ProfileResult } from './profile.js';
import { measureSubscribers, type LiveWorkspace, type SubscribersResult } from './subscribers.js';
import { measureEmbeddedLoad, measureStarts } from './startup.js';
import { writeReport, type BenchReport, type ScaleResults } from './report.js';

/** `--quick`: a smaller data set and shorter rows, for development; the full run stays the reference. */
const quick = process.argv.includes('--quick');
/** Names a quick run's results and report (bench/results/<time>-quick.json and .md), which git ignores. */
const QUICK_SUFFIX = '-quick';
// Durations are whole seconds: autocannon stops a run at its next whole second.
const settings = {
  databaseUrl: process.env['BENCH_DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/crm_bench',
  contacts: Number(process.env['BENCH_CONTACTS'] ?? (quick ? 100_000 : 1_000_000)),
  smallContacts: Number(process.env['BENCH_SMALL_CONTACTS'] ?? 10_000),
  /** A third workspace, measured after the large one (0: none): whether reads hold at ten times its size. */
  hugeContacts: Number(process.env['BENCH_HUGE_CONTACTS'] ?? 0),
  /** The embedded database is seeded anew by every run (PGlite's writes are slow), so `--quick` gives it fewer. */
  embeddedContacts: Number(process.env['BENCH_EMBEDDED_CONTACTS'] ?? (quick ? 2_000 : 10_000)),
  messagesPerConversation: Number(process.env['BENCH_MESSAGES_PER_CONVERSATION'] ?? 5),
  seconds: Number(process.env['BENCH_SECONDS'] ?? (quick ? 1 : 10)),
  connections: Number(process.env['BENCH_CONNECTIONS'] ?? 16),
  /** Latency is also measured with one connection: a single client's wait, without queueing behind others. */
  latencySeconds: Number(process.env['BENCH_LATENCY_SECONDS'] ?? (quick ? 1 : 5)),
  webhookEvents: Number(process.env['BENCH_WEBHOOK_EVENTS'] ?? (quick ? 1_000 : 5_000)),
  webhookSubscriptions: Number(process.env['BENCH_WEBHOOK_SUBSCRIPTIONS'] ?? 4),
  /** Concurrent GraphQL SSE subscribers of one workspace, and the inbound messages each of them must receive. */
  subscribers: Number(process.env['BENCH_SUBSCRIBERS'] ?? (quick ? 200 : 1_000)),
  liveMessages: Number(process.env['BENCH_LIVE_MESSAGES'] ?? 20),
  /** Each read runs this long, unmeasured, before the first measurement: JIT compilation and pools settle. */
  warmupSeconds: Number(process.env['BENCH_WARMUP_SECONDS'] ?? (quick ? 1 : 3)),
  /** Before a started service's idle memory is read; bench/startup.ts's default unless quick. */
  idleSeconds: quick ? 5 : undefined,
};
/** What holds back the targets not met, written by hand from the profiles; appended to docs/performance.md. */
const ANALYSIS = 'bench/analysis.md';
const SEED_STATEMENT_TIMEOUT_MS = 3 * 60 * 60 * 1000;
// A fixed key: bench workspaces' sealed credentials stay readable across resumed runs.
const BENCH_ENCRYPTION_KEY = '6265'.repeat(16);

async function ensureDatabase(url: string) {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  const admin = new pg.Client({ connectionString: Object.assign(new URL(url), { pathname: '/postgres' }).toString() });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
  await admin.end();
}

type BenchWorkspace = { id: string; integrationId: string; key: string };

async function prepare(): Promise<{
  large: BenchWorkspace;
  small: BenchWorkspace;
  huge?: BenchWorkspace;
  other: BenchWorkspace;
  live: LiveWorkspace;
}> {
  await ensureDatabase(settings.databaseUrl);
  // Building a deferred index of a large seed takes minutes, past the service's statement time-out.
  const db = await openDatabase({ url: settings.databaseUrl, poolSize: cpus().length + 2, statementTimeoutMs: SEED_STATEMENT_TIMEOUT_MS });
  await migrate(db.sql);
  const services = { prisma: db.prisma, secrets: createSecretBox(Buffer.from(BENCH_ENCRYPTION_KEY, 'hex')) };
  async function workspace(name: string, contacts: number): Promise<SeedPlan> {
    let found = await db.prisma.workspace.findFirst({ where: { name }, include: { integrations: true } });
    if (!found) {
      await createWorkspace(services, { name, email: `bench@${name}.example.com` });
      found = await db.prisma.workspace.findFirstOrThrow({ where: { name }, include: { integrations: true } });
    }
    console.log(`workspace ${name}: ${contacts} contacts`);
    return {
      workspaceId: found.id,
      integrationId: found.integrations[0]!.id,
      contacts,
      messagesPerConversation: settings.messagesPerConversation,
    };
  }
  // Several workspaces share the tables, as in production; reads are scoped to one.
  const planned: [string, number][] = [
    ['bench-other-1', 2_000],
    ['bench-other-2', 2_000],
    ['bench-other-3', 2_000],
    [`bench-${settings.smallContacts}`, settings.smallContacts],
    [`bench-${settings.contacts}`, settings.contacts],
    ...(settings.hugeContacts > 0 ? [[`bench-${settings.hugeContacts}`, settings.hugeContacts] as [string, number]] : []),
  ];
  const seeded: SeedPlan[] = [];
  for (const [name, contacts] of planned) seeded.push(await workspace(name, contacts));
  await seedBenchData(db.sql, seeded, cpus().length);
  // The reports' kept days of the seeded history, computed as the service's day keeper computes them, before anything
  // is measured: the keeper of the measured service would otherwise spend the run on them.
  console.log('report days: every ended day of each workspace');
  while (await keepEndedDays({ prisma: db.prisma }, planned.length));
  const keyed = async (plan: SeedPlan): Promise<BenchWorkspace> => {
    const { api_key } = await createApiKey(db.prisma, { workspaceId: plan.workspaceId, name: 'bench', scopes: ALL_KEY_SCOPES });
    return { id: plan.workspaceId, integrationId: plan.integrationId, key: api_key };
  };
  const [other, small, large] = [await keyed(seeded[0]!), await keyed(seeded[3]!), await keyed(seeded[4]!)];
  const huge = seeded[5] ? await keyed(seeded[5]) : undefined;
  // Earlier runs' send loads left their messages, the newest rows of the table: every run starts from the seeded data.
  const removed = await db.prisma.message.deleteMany({
    where: { sender_type: 'api_key', company_id: { in: [small.id, large.id, ...(huge ? [huge.id] : [])] } },
  });
  if (removed.count > 0) await db.sql.exec('VACUUM (ANALYZE) messages');
  // Live updates get a new workspace each run: its inbound webhooks need the integration's app secret, which
  // only creation shows.
  const created = await createWorkspace(services, { name: `bench-live-${Date.now()}`, email: 'bench@live.example.com' });
  const live = { key: created.api_key, phoneNumberId: created.phone_number_id, appSecret: created.app_secret };
  await db.close();
  return { large, small, ...(huge ? { huge } : {}), other, live };
}

/** A request to the service, which presents a self-signed certificate. */
function fetchInsecure(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; json(): Promise<unknown> }> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(url, { method: init.method, headers: init.headers, rejectUnauthorized: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, json: async () => JSON.parse(Buffer.concat(chunks).toString('utf8')) }),
      );
    });
    request.on('error', reject);
    request.end(init.body);
  });
}

type Measured = { service: Server; workspace: BenchWorkspace };

const load = (
  server: Server,
  workspace: BenchWorkspace,
  path: string,
  connections = settings.connections,
  seconds = settings.seconds,
): Promise<LoadResult> =>
  measure({ url: `${server.url}${path}`, headers: { authorization: `Bearer ${workspace.key}` }, seconds, connections });

const loadGraphql = ({ service, workspace }: Measured, body: string, seconds = settings.seconds): Promise<LoadResult> =>
  measure({
    url: `${service.url}/graphql`,
    method: 'POST',
    headers: { authorization: `Bearer ${workspace.key}`, 'content-type': 'application/json' },
    body,
    seconds,
    connections: settings.connections,
  });

/** Each read through the service's REST route, its GraphQL and the baseline; `--quick` warms the REST route only. */
async function warmUp(service: Server, baseline: Server, workspace: BenchWorkspace, contacts: number, pool: pg.Pool): Promise<void> {
  console.log(`  warming up (${settings.warmupSeconds} s per read)`);
  for (const read of await readsFor(pool, workspace.id, contacts)) {
    await load(service, workspace, read.path, settings.connections, settings.warmupSeconds);
    if (quick) continue;
    await loadGraphql({ service, workspace }, read.graphql, settings.warmupSeconds);
    if (read.baseline) await load(baseline, workspace, read.path, settings.connections, settings.warmupSeconds);
  }
}

/** One request, timed: the first of a read at its scale, before any load (the reports compute their kept days). A
 * failed one stops the run, but at the third scale, where it is recorded as -1 and the run goes on. */
async function firstRequestMs(server: Server, workspace: BenchWorkspace, path: string, tolerant: boolean): Promise<number> {
  const started = performance.now();
  const response = await fetchInsecure(`${server.url}${path}`, { method: 'GET', headers: { authorization: `Bearer ${workspace.key}` } });
  if (response.status === 200) return Math.round(performance.now() - started);
  if (!tolerant) throw new Error(`${path}: ${response.status}`);
  console.log(`  ${path}: the first request answered ${response.status}`);
  return -1;
}

/** A JSON value with every object's keys in order, and a page's cursor left out (the baseline's is the last id). */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'next_cursor')
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, field]) => [key, comparable(field)]),
  );
}

/** The baseline is a floor only if it answers what the service answers: the same JSON for the read, or the run stops. */
async function assertSameAnswer(service: Server, baseline: Server, workspace: BenchWorkspace, read: Read): Promise<void> {
  const [ours, floor] = await Promise.all(
    [service, baseline].map(async (server) => {
      const response = await fetchInsecure(`${server.url}${read.path}`, {
        method: 'GET',
        headers: { authorization: `Bearer ${workspace.key}` },
      });
      return JSON.stringify(comparable(await response.json()));
    }),
  );
  if (ours !== floor) throw new Error(`${read.name}: the baseline answers differently from the service\n${ours}\n${floor}`);
}

/** The REST operation that searches each list. */
const SEARCH_OPERATIONS: Record<SearchedList, string> = {
  contacts: 'searchContacts',
  conversations: 'searchConversations',
  messages: 'searchMessages',
};

/** `tolerant`: the third scale's, whose failed first requests are recorded instead of stopping the run. */
async function runScale(
  service: Server,
  baseline: Server,
  workspace: BenchWorkspace,
  contacts: number,
  pool: pg.Pool,
  tolerant = false,
): Promise<ScaleResults> {
  const results: ScaleResults = { contacts, first: {}, service: {}, baseline: {}, graphql: {}, latency: {}, searches: {} };
  for (const read of await readsFor(pool, workspace.id, contacts)) {
    console.log(
      `  ${contacts} · ${read.name}: first request, service REST, GraphQL, one connection${read.baseline ? ', baseline' : ''} (service RSS so far ${service.maxRssMb()} MB)`,
    );
    results.first![read.name] = await firstRequestMs(service, workspace, read.path, tolerant);
    if (read.baseline) await assertSameAnswer(service, baseline, workspace, read);
    results.service[read.name] = await load(service, workspace, read.path);
    results.graphql[read.name] = await loadGraphql({ service, workspace }, read.graphql);
    results.latency[read.name] = await load(service, workspace, read.path, 1, settings.latencySeconds);
    if (read.baseline) results.baseline[read.name] = await load(baseline, workspace, read.path);
  }
  const terms = await searchTermsFor(pool, workspace.id, contacts);
  for (const list of SEARCHED_LISTS) {
    const measured: NonNullable<ScaleResults['searches']>[SearchedList] = {};
    for (const kind of SEARCH_CLASSES) {
      const listTerms = terms[list][kind];
      if (!listTerms) continue;
      console.log(`  ${contacts} · ${list} search, ${kind} terms: one client`);
      const requests = listTerms.map((q) => ({ path: restPath(SEARCH_OPERATIONS[list], { q }) }));
      const result = await measure({
        url: `${service.url}${requests[0]!.path}`,
        headers: { authorization: `Bearer ${workspace.key}` },
        requests,
        seconds: settings.latencySeconds,
        connections: 1,
      });
      measured[kind] = { ...result, terms: listTerms };
    }
    results.searches![list] = measured;
  }
  return results;
}

/** POST /messages: a template message (allowed outside the 24-hour window) on open conversations, in turn. */
async function measureSends({ service, workspace }: Measured, pool: pg.Pool): Promise<LoadResult> {
  const { rows } = await pool.query("SELECT id FROM conversations WHERE company_id = $1 AND status = 'active' ORDER BY id DESC LIMIT 200", [
    workspace.id,
  ]);
  const requests = rows.map((row: { id: string }) => ({
    body: JSON.stringify({ conversation_id: row.id, template: { name: 'verification_code', language: 'en_US', parameters: ['482913'] } }),
  }));
  const load = {
    url: `${service.url}/api/v1/messages`,
    method: 'POST' as const,
    headers: { authorization: `Bearer ${workspace.key}`, 'content-type': 'application/json' },
    requests,
    connections: settings.connections,
  };
  // Warmed up as the reads are: the send path's code is compiled and its statements prepared before it is measured.
  await measure({ ...load, seconds: settings.warmupSeconds });
  return measure({ ...load, seconds: settings.seconds });
}

/** Fan-out runs in a service of its own: the receiver is on 127.0.0.1, which only a non-production service may
 * call (WEBHOOK_ALLOWED_HOSTS), trusting the receiver's self-signed certificate (WEBHOOK_CA_FILE). */
async function runFanOut(env: Record<string, string>, workspace: BenchWorkspace): Promise<FanOutResult> {
  const receiver = await startReceiver();
  const service = await startService({
    ...env,
    NODE_ENV: 'development',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,localhost',
    WEBHOOK_CA_FILE: receiver.certFile,
    WEBHOOK_POLL_MS: '100',
  });
  try {
    const api = async (method: string, path: string, body?: unknown) => {
      const response = await fetchInsecure(`${service.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${workspace.key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: response.status, body: (response.status === 204 ? {} : await response.json()) as { id?: string } };
    };
    return await measureFanOut({
      databaseUrl: settings.databaseUrl,
      workspaceId: workspace.id,
      api,
      receiver,
      events: settings.webhookEvents,
      subscriptions: settings.webhookSubscriptions,
      timeoutMs: 120_000,
    });
  } finally {
    await service.stop();
    receiver.close();
  }
}

/** Subscribers run against a service of their own, so its memory growth is theirs alone. */
async function runSubscribers(env: Record<string, string>, live: LiveWorkspace): Promise<SubscribersResult> {
  const service = await startService(env);
  try {
    return await measureSubscribers({
      url: service.url,
      workspace: live,
      subscribers: settings.subscribers,
      messages: settings.liveMessages,
      rssMb: service.rssMb,
    });
  } finally {
    await service.stop();
  }
}

async function main() {
  const started = new Date();
  const { large, small, huge, other, live } = await prepare();
  // The per-key rate limit (100 a minute) would answer almost every request with 429: the bench measures the
  // API behind it, so it lifts the limit for its own service process.
  const env = {
    DATABASE_URL: settings.databaseUrl,
    PORT: '0',
    METRICS_PORT: '0',
    LOG_LEVEL: 'info',
    NODE_ENV: 'production',
    ENCRYPTION_KEY: BENCH_ENCRYPTION_KEY,
    RATE_LIMIT_PER_MINUTE: '1000000000',
  };
  execSync('node scripts/build.mjs --if-outdated', { stdio: 'inherit' });
  const service = await startService(env);
  const baseline = await startProcess(['--import', 'tsx', 'bench/baseline.ts'], env);
  const pool = new pg.Pool({ connectionString: settings.databaseUrl, max: 2 });
  try {
    await warmUp(service, baseline, small, settings.smallContacts, pool);
    service.resetRss();
    const scales = [
      await runScale(service, baseline, small, settings.smallContacts, pool),
      await runScale(service, baseline, large, settings.contacts, pool),
      ...(huge ? [await runScale(service, baseline, huge, settings.hugeContacts, pool, true)] : []),
    ];
    console.log(`  POST /messages (service RSS so far ${service.maxRssMb()} MB)`);
    const sends = await measureSends({ service, workspace: small }, pool);
    const serviceMaxRss = service.maxRssMb();
    await service.stop();
    await baseline.stop();
    console.log(`  webhook fan-out: ${settings.webhookEvents} events × ${settings.webhookSubscriptions} subscriptions`);
    const webhooks = await runFanOut(env, other);
    console.log(`  live updates: ${settings.subscribers} SSE subscribers × ${settings.liveMessages} inbound messages`);
    const subscribers = await runSubscribers(env, live);
    console.log('  npm start: new embedded database, restarts, idle memory');
    const starts = await measureStarts(settings.databaseUrl, BENCH_ENCRYPTION_KEY, settings.idleSeconds);
    console.log(`  the embedded database under load (${settings.embeddedContacts} contacts)`);
    const embedded = await measureEmbeddedLoad({
      contacts: settings.embeddedContacts,
      messagesPerConversation: settings.messagesPerConversation,
      seconds: settings.seconds,
      connections: settings.connections,
      idleSeconds: settings.idleSeconds,
    });
    const profiles: ProfileResult[] = [];
    for (const read of (await readsFor(pool, large.id, settings.contacts)).filter((read) =>
      ['contacts_get', 'contacts_list'].includes(read.name),
    )) {
      console.log(`  CPU profile of the service under ${read.name}`);
      profiles.push(
        await profileRead({
          env,
          read,
          key: large.key,
          warmupSeconds: settings.warmupSeconds,
          seconds: settings.seconds,
          connections: settings.connections,
        }),
      );
    }
    const report: BenchReport = {
      date: started.toISOString(),
      commit: execSync('git rev-parse --short HEAD').toString().trim(),
      machine: {
        cpus: cpus().length,
        cpu_model: cpus()[0]?.model ?? 'unknown',
        memory_gb: Math.round(totalmem() / 2 ** 30),
        node: process.version,
      },
      settings: {
        seconds: settings.seconds,
        connections: settings.connections,
        latency_seconds: settings.latencySeconds,
        messages_per_conversation: settings.messagesPerConversation,
      },
      service_max_rss_mb: serviceMaxRss,
      scales,
      sends,
      webhooks,
      subscribers,
      starts,
      embedded,
      profiles,
      storage: await measureStorage(pool),
    };
    mkdirSync('bench/results', { recursive: true });
    const file = `bench/results/${started.toISOString().replace(/[:.]/g, '-')}${quick ? QUICK_SUFFIX : ''}.json`;
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    // A quick run is for development: its report goes beside its results, and docs/performance.md keeps the full run's.
    const reportFile = quick ? file.replace(/\.json$/, '.md') : 'docs/performance.md';
    writeReport(report, reportFile, existsSync(ANALYSIS) ? readFileSync(ANALYSIS, 'utf8') : '');
    console.log(`results: ${file} and ${reportFile}`);
  } finally {
    await pool.end();
    await service.stop();
    await baseline.stop();
  }
}

/** `npm run bench -- --report`: docs/performance.md again from the newest full run's results, e.g. after editing the
 * analysis. */
function rewriteReport() {
  const newest = readdirSync('bench/results')
    .filter((name) => name.endsWith('.json') && !name.endsWith(`${QUICK_SUFFIX}.json`))
    .sort()
    .at(-1);
  if (!newest) throw new Error('no results in bench/results: run npm run bench first');
  const report = JSON.parse(readFileSync(`bench/results/${newest}`, 'utf8')) as BenchReport;
  writeReport(report, 'docs/performance.md', existsSync(ANALYSIS) ? readFileSync(ANALYSIS, 'utf8') : '');
  console.log(`docs/performance.md from bench/results/${newest}`);
}

if (process.argv.includes('--report')) rewriteReport();
else if (process.argv.includes('--seed')) {
  const started = performance.now();
  await prepare();
  console.log(`seeded in ${Math.round((performance.now() - started) / 1000)} s`);
  const pool = new pg.Pool({ connectionString: settings.databaseUrl, max: 1 });
  console.log(storageLines(await measureStorage(pool)).join('\n'));
  await pool.end();
} else await main();
