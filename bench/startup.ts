// Start time and memory as a person running the service meets them: `npm start` timed to the first 200 on /health
// (a new DATA_DIR on the embedded database, a restart of it, a restart on PostgreSQL), the node process's resident
// memory once it has been idle a while, and the embedded database's service under the reads' load.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from '../infra/db/database.js';
import { migrate } from '../infra/db/migrate.js';
import { createSecretBox } from '../infra/crypto/secrets.js';
import { createWorkspace } from '../resolvers/workspace/workspaces.js';
import { keepEndedDays } from '../resolvers/reports/dayKeeper.js';
import { measure, type LoadResult } from './load.js';
import { readsFor } from './reads.js';
import { seedBenchData } from './seed.js';
import { startService } from './servers.js';

export type StartResult = { kind: string; seconds: number; idle_rss_mb: number };
export type EmbeddedLoadResult = { contacts: number; idle_rss_mb: number; max_rss_mb: number; reads: Record<string, LoadResult> };

const EMBEDDED_KEY = '01'.repeat(32);

/** How long the service is left alone before its idle memory is read, by default: V8 gives back what start-up left
 * behind (`--quick` reads it sooner). */
const IDLE_SECONDS = 30;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

/** The node process `npm start` runs (npm → sh → node scripts/start.mjs). */
function serverPid(npmPid: number): number {
  const children = (pid: number): number[] => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  for (const pending = [npmPid]; pending.length > 0;) {
    const pid = pending.shift()!;
    if (
      readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('scripts/start.mjs') &&
      !readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('sh')
    )
      return pid;
    pending.push(...children(pid));
  }
  throw new Error('npm start runs no node scripts/start.mjs');
}

function healthStatus(port: number): Promise<number> {
  return new Promise((resolve) => {
    const probe = request({ host: '127.0.0.1', port, path: '/health', rejectUnauthorized: false }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    probe.on('error', () => resolve(0));
    probe.end();
  });
}

/** `npm start` with `env`: seconds from the command to the first 200 on /health, then the idle memory. */
export async function timeStart(kind: string, env: Record<string, string>, idleSeconds = IDLE_SECONDS): Promise<StartResult> {
  const started = performance.now();
  const child = spawn('npm', ['start'], { env: { ...process.env, ...env, PORT: '0', METRICS_PORT: '0' }, detached: true });
  try {
    let output = '';
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const found = /listening on port (\d+)/.exec(output)?.[1];
        if (found) resolve(Number(found));
      });
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output.slice(-2000)}`)));
    });
    while ((await healthStatus(port)) !== 200) await new Promise((resolve) => setTimeout(resolve, 10));
    const seconds = Math.round((performance.now() - started) / 10) / 100;
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    return { kind, seconds, idle_rss_mb: rssMb(serverPid(child.pid!)) };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
}

/** Start times: the embedded database new and restarted, and PostgreSQL restarted (its schema already migrated). */
export async function measureStarts(databaseUrl: string, encryptionKey: string, idleSeconds = IDLE_SECONDS): Promise<StartResult[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'crm-bench-start-'));
  try {
    const embedded = { DATA_DIR: dataDir };
    return [
      await timeStart('embedded database, first start (new DATA_DIR: database created and migrated)', embedded, idleSeconds),
      await timeStart('embedded database, restart', embedded, idleSeconds),
      await timeStart('PostgreSQL, restart', { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, ENCRYPTION_KEY: encryptionKey }, idleSeconds),
    ];
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The service on the embedded database with `contacts` contacts, under the reads that PGlite serves in production. */
export async function measureEmbeddedLoad(options: {
  contacts: number;
  messagesPerConversation: number;
  seconds: number;
  connections: number;
  idleSeconds?: number;
}): Promise<EmbeddedLoadResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'crm-bench-embedded-'));
  try {
    const db = await openDatabase({ dataDir });
    await migrate(db.sql);
    const workspace = await createWorkspace(
      { prisma: db.prisma, secrets: createSecretBox(Buffer.from(EMBEDDED_KEY, 'hex')) },
      { name: 'bench-embedded', email: 'bench@embedded.example.com' },
    );
    await seedBenchData(db.sql, [
      {
        workspaceId: workspace.workspace_id,
        integrationId: workspace.integration_id,
        contacts: options.contacts,
        messagesPerConversation: options.messagesPerConversation,
      },
    ]);
    // The seeded history's report days, kept before the service starts, as the PostgreSQL run's preparation keeps them
    // (bench/run.ts): the service's day keeper would otherwise compute two years of days during the idle wait and the
    // load, a catch-up a database meets once, and the embedded database's memory keeps its peak.
    while (await keepEndedDays({ prisma: db.prisma }, 1));
    await db.close();
    const service = await startService({
      DATA_DIR: dataDir,
      PORT: '0',
      METRICS_PORT: '0',
      NODE_ENV: 'production',
      ENCRYPTION_KEY: EMBEDDED_KEY,
      RATE_LIMIT_PER_MINUTE: '1000000000',
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, (options.idleSeconds ?? IDLE_SECONDS) * 1000));
      const idle = service.rssMb();
      // The server serves its database to other processes on a Unix socket in DATA_DIR (README, "The embedded database").
      const socket = readdirSync(dataDir).find((name) => /^\.s\.PGSQL\.\d+$/.test(name))!;
      const pool = new pg.Pool({ host: dataDir, port: Number(socket.split('.').at(-1)), user: 'postgres', database: 'postgres', max: 1 });
      const reads = (await readsFor(pool, workspace.workspace_id, options.contacts)).filter((read) =>
        ['contacts_list', 'contacts_search_name', 'contacts_get', 'conversations_list', 'conversation_messages'].includes(read.name),
      );
      await pool.end();
      service.resetRss();
      const results: Record<string, LoadResult> = {};
      for (const read of reads) {
        results[read.name] = await measure({
          url: `${service.url}${read.path}`,
          headers: { authorization: `Bearer ${workspace.api_key}` },
          seconds: options.seconds,
          connections: options.connections,
        });
      }
      return { contacts: options.contacts, idle_rss_mb: idle, max_rss_mb: service.maxRssMb(), reads: results };
    } finally {
      await service.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
