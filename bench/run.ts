// `npm run bench`: seeds PostgreSQL with the benchmark data set (resumable), starts the real service and
// a raw node:http + pg baseline, drives both with autocannon, and writes bench/results/<stamp>.json and
// docs/performance.md. Settings: BENCH_DATABASE_URL, BENCH_CONTACTS, BENCH_SMALL_CONTACTS, BENCH_SECONDS,
// BENCH_CONNECTIONS (README, "Benchmarks").
import { execSync } from 'node:child_process';
import { request as httpsRequest } from 'node:https';
import { cpus, totalmem } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { openDatabase } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import { createSecretBox } from '../crypto/secrets.js';
import { createWorkspace } from '../resolvers/workspaces.js';
import { createApiKey } from '../resolvers/apiKeys.js';
import { ALL_KEY_SCOPES } from '../auth/scopes.js';
import { seedBenchData } from './seed.js';
import { startProcess, type Server } from './servers.js';
import { measure, type LoadResult } from './load.js';
import { writeReport, type BenchReport, type ScaleResults } from './report.js';

const settings = {
  databaseUrl: process.env['BENCH_DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/crm_bench',
  contacts: Number(process.env['BENCH_CONTACTS'] ?? 1_000_000),
  smallContacts: Number(process.env['BENCH_SMALL_CONTACTS'] ?? 10_000),
  messagesPerConversation: Number(process.env['BENCH_MESSAGES_PER_CONVERSATION'] ?? 5),
  seconds: Number(process.env['BENCH_SECONDS'] ?? 10),
  connections: Number(process.env['BENCH_CONNECTIONS'] ?? 16),
};
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

async function prepare(): Promise<{ large: BenchWorkspace; small: BenchWorkspace }> {
  await ensureDatabase(settings.databaseUrl);
  const db = await openDatabase({ url: settings.databaseUrl, poolSize: 4 });
  await migrate(db.sql);
  const services = { prisma: db.prisma, secrets: createSecretBox(Buffer.from(BENCH_ENCRYPTION_KEY, 'hex')) };
  async function workspace(name: string, contacts: number): Promise<BenchWorkspace> {
    let found = await db.prisma.workspace.findFirst({ where: { name }, include: { integrations: true } });
    if (!found) {
      await createWorkspace(services, { name, email: `bench@${name}.example.com` });
      found = await db.prisma.workspace.findFirstOrThrow({ where: { name }, include: { integrations: true } });
    }
    const integrationId = found.integrations[0]!.id;
    console.log(`workspace ${name}: ${contacts} contacts`);
    await seedBenchData(db.sql, { workspaceId: found.id, integrationId, contacts, conversations: contacts, messagesPerConversation: settings.messagesPerConversation });
    const { api_key } = await createApiKey(db.prisma, { workspaceId: found.id, name: 'bench', scopes: ALL_KEY_SCOPES });
    return { id: found.id, integrationId, key: api_key };
  }
  // Several workspaces share the tables, as in production; reads are scoped to one.
  for (let other = 1; other <= 3; other++) await workspace(`bench-other-${other}`, 2_000);
  const small = await workspace(`bench-${settings.smallContacts}`, settings.smallContacts);
  const large = await workspace(`bench-${settings.contacts}`, settings.contacts);
  await db.close();
  return { large, small };
}

function detectScheme(port: number): Promise<string> {
  return new Promise((resolve) => {
    const probe = httpsRequest({ host: '127.0.0.1', port, path: '/health', rejectUnauthorized: false, timeout: 2000 }, (response) => {
      response.resume();
      resolve(`https://127.0.0.1:${port}`);
    });
    probe.on('error', () => resolve(`http://127.0.0.1:${port}`));
    probe.end();
  });
}

async function sample(sql: pg.Pool, query: string, params: unknown[]): Promise<string> {
  const { rows } = await sql.query(query, params);
  return String(Object.values(rows[0] ?? {})[0] ?? '');
}

async function readsFor(workspace: BenchWorkspace, pool: pg.Pool, contacts: number) {
  const deepCursor = await sample(pool, 'SELECT id FROM customers WHERE company_id = $1 ORDER BY id DESC OFFSET $2 LIMIT 1', [workspace.id, Math.floor(contacts / 2)]);
  const someId = await sample(pool, 'SELECT id FROM customers WHERE company_id = $1 ORDER BY id DESC OFFSET $2 LIMIT 1', [workspace.id, Math.floor(contacts / 3)]);
  const before = await sample(pool, "SELECT to_char(last_message_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') FROM conversations WHERE company_id = $1 AND last_message_at IS NOT NULL ORDER BY last_message_at DESC OFFSET $2 LIMIT 1", [workspace.id, Math.floor(contacts / 2)]);
  // Search fragments taken from one real row: a "last-name number" pair, the middle of a phone number and the
  // start of an e-mail address, each matching a handful of contacts among all of them.
  const { rows } = await pool.query(
    "SELECT name, phone_number, email FROM customers WHERE company_id = $1 AND email IS NOT NULL ORDER BY id DESC OFFSET $2 LIMIT 1",
    [workspace.id, Math.floor(contacts / 7)],
  );
  const row = rows[0] as { name: string; phone_number: string; email: string };
  const nameFragment = row.name.split(' ').slice(1).join(' ');
  return {
    contacts_list: `/api/v1/contacts?limit=50`,
    contacts_list_deep: `/api/v1/contacts?limit=50&cursor=${deepCursor}`,
    contacts_search_name: `/api/v1/contacts/search?q=${encodeURIComponent(nameFragment)}`,
    contacts_search_phone: `/api/v1/contacts/search?q=${encodeURIComponent(row.phone_number.slice(5, 12))}`,
    contacts_search_email: `/api/v1/contacts/search?q=${encodeURIComponent(row.email.split('@')[0]!)}`,
    contacts_get: `/api/v1/contacts/${someId}`,
    conversations_list: `/api/v1/conversations?status=active&limit=20&before=${encodeURIComponent(before)}`,
    users: `/api/v1/users`,
  } as const;
}

const GRAPHQL: Record<string, (paths: Awaited<ReturnType<typeof readsFor>>) => string> = {
  contacts_list: () => 'query { contacts(limit: 50) { data { id company_id phone_number wa_id email name image_url metadata created_at updated_at } next_cursor has_more } }',
  contacts_get: (paths) => `query { contact(id: "${paths.contacts_get.split('/').pop()}") { id company_id phone_number wa_id email name image_url metadata created_at updated_at profile_name notes tags last_message_at conversation_count } }`,
  contacts_search_name: (paths) => `query { contactSearch(q: ${JSON.stringify(decodeURIComponent(paths.contacts_search_name.split('q=')[1]!))}) { data { id company_id phone_number wa_id email name image_url metadata created_at updated_at } next_cursor has_more } }`,
};

async function runScale(service: Server, baseline: Server, workspace: BenchWorkspace, contacts: number, pool: pg.Pool): Promise<ScaleResults> {
  const paths = await readsFor(workspace, pool, contacts);
  const headers = { authorization: `Bearer ${workspace.key}` };
  const load = (server: Server, path: string): Promise<LoadResult> =>
    measure({ url: `${server.url}${path}`, headers, seconds: settings.seconds, connections: settings.connections });
  const results: ScaleResults = { contacts, service: {}, baseline: {}, graphql: {} };
  for (const [name, path] of Object.entries(paths)) {
    console.log(`  ${contacts} · service REST ${name}`);
    results.service[name] = await load(service, path);
    if (name.startsWith('contacts_')) {
      console.log(`  ${contacts} · baseline ${name}`);
      results.baseline[name] = await load(baseline, path);
    }
  }
  for (const [name, query] of Object.entries(GRAPHQL)) {
    console.log(`  ${contacts} · service GraphQL ${name}`);
    results.graphql[name] = await measure({
      url: `${service.url}/graphql`,
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ query: query(paths) }),
      seconds: settings.seconds,
      connections: settings.connections,
    });
  }
  return results;
}

async function main() {
  const started = new Date();
  const { large, small } = await prepare();
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
  const service = await startProcess('app/main.ts', env, detectScheme);
  const baseline = await startProcess('bench/baseline.ts', env, async (port) => `http://127.0.0.1:${port}`);
  const pool = new pg.Pool({ connectionString: settings.databaseUrl, max: 2 });
  try {
    service.resetRss();
    const scales = [await runScale(service, baseline, small, settings.smallContacts, pool), await runScale(service, baseline, large, settings.contacts, pool)];
    const report: BenchReport = {
      date: started.toISOString(),
      commit: execSync('git rev-parse --short HEAD').toString().trim(),
      machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model ?? 'unknown', memory_gb: Math.round(totalmem() / 2 ** 30), node: process.version },
      settings: { seconds: settings.seconds, connections: settings.connections, messages_per_conversation: settings.messagesPerConversation },
      service_max_rss_mb: service.maxRssMb(),
      scales,
    };
    mkdirSync('bench/results', { recursive: true });
    const file = `bench/results/${started.toISOString().replace(/[:.]/g, '-')}.json`;
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    writeReport(report, 'docs/performance.md');
    console.log(`results: ${file} and docs/performance.md`);
  } finally {
    await pool.end();
    await service.stop();
    await baseline.stop();
  }
}

await main();
