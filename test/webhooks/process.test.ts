// Webhook delivery in real processes. Crash safety: a server process (dist/main.js, as `npm start` runs it, its
// in-process workers on) is killed with SIGKILL while thousands of events are in flight, then started
// again; every event still arrives at the HTTPS receiver, signed, byte for byte, always under the same
// delivery id. Duplicates (at-least-once delivery) are counted and reported. On the embedded database the
// events are seeded into the child's data directory before it starts (PGlite belongs to one process); on
// PostgreSQL, into the test database. And `npm run worker` (dist/worker.js) is a process of the service of
// its own: it delivers, serves its metrics on its own listener, and on SIGTERM drains its workers (an attempt
// in flight is finished and recorded) before the shutdown registry closes the database and the listener.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openDatabase, type Database } from '../../infra/db/database.js';
import { migrate } from '../../infra/db/migrate.js';
import { createSecretBox } from '../../infra/crypto/secrets.js';
import { createWorkspace } from '../../resolvers/workspace/workspaces.js';
import { recordMessageEvents, takeTurnsWithOtherWorkerFiles } from '../support/webhooks.js';
import { startReceiver, testCertificate, type Receiver } from '../support/webhookReceiver.js';

takeTurnsWithOtherWorkerFiles();

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const databaseUrl = process.env['TEST_DATABASE_URL'];
const databaseKind = databaseUrl ? 'PostgreSQL' : 'embedded';

async function openDataDirDatabase(dataDir: string): Promise<Database> {
  if (databaseUrl) return openDatabase({ url: databaseUrl, poolSize: 2 });
  const db = await openDatabase({ dataDir });
  await migrate(db.sql);
  return db;
}

/** Waits until the workspace's `count` deliveries are all recorded as succeeded (read through the running server on
 * the embedded database). */
async function waitForRecordedDeliveries(dataDir: string, workspaceId: string, count: number, timeoutMs: number) {
  const db = await openDataDirDatabase(dataDir);
  try {
    for (const deadline = Date.now() + timeoutMs; ;) {
      const succeeded = await db.prisma.webhookDelivery.count({ where: { company_id: workspaceId, status: 'succeeded' } });
      if (succeeded === count) return;
      if (Date.now() > deadline) throw new Error(`${succeeded} of ${count} deliveries recorded as succeeded after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await db.close();
  }
}

type Child = { process: ChildProcess; output: string[] };

/** The server or the worker compiled, as `npm start` and `npm run worker` run them (test/support/globalSetup.ts
 * builds dist/), started by node itself, so that SIGKILL reaches the process that works. */
function startProcess(entry: 'dist/main.js' | 'dist/worker.js', env: NodeJS.ProcessEnv): Child {
  const child = spawn(process.execPath, ['--enable-source-maps', entry], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  onTestFinished((context) => {
    if (context.task.result?.state === 'fail') console.error(`${entry} output:\n${output.join('').slice(-5000)}`);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return { process: child, output };
}

type LogLine = Record<string, unknown> & { msg: string };

/** The JSON lines the child has printed in full so far. */
function logs(child: Child): LogLine[] {
  const lines = child.output.join('').split('\n').slice(0, -1);
  return lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as LogLine);
}

async function metricsPortOf(child: Child): Promise<number> {
  await expect.poll(() => logs(child).some((line) => typeof line['metrics_port'] === 'number'), { timeout: 60_000 }).toBe(true);
  return logs(child).find((line) => typeof line['metrics_port'] === 'number')!['metrics_port'] as number;
}

/** The value of one series in Prometheus text; 0 when it has no sample yet. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

async function stop(child: Child, signal: NodeJS.Signals): Promise<number | null> {
  const exited = once(child.process, 'exit');
  child.process.kill(signal);
  const [code] = await exited;
  return code as number | null;
}

/**
 * A data directory (or the test PostgreSQL) holding a workspace, a subscription to a fresh HTTPS receiver and
 * `count` recorded events; the settings a child process needs to deliver them. Cleaned up when the test ends.
 */
async function seededDelivery(count: number, answer?: Receiver['answer']) {
  const dataDir = mkdtempSync(join(tmpdir(), 'crm-webhooks-'));
  const encryptionKey = randomBytes(32).toString('hex');
  const caFile = join(dataDir, 'receiver-ca.pem');
  writeFileSync(caFile, (await testCertificate()).cert);
  const receiver = await startReceiver(answer ? { answer } : {});

  const db = await openDataDirDatabase(dataDir);
  const secrets = createSecretBox(Buffer.from(encryptionKey, 'hex'));
  const workspace = await createWorkspace(
    { prisma: db.prisma, secrets },
    { name: 'Process test', email: `process${Date.now()}@example.com` },
  );
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;
  receiver.secrets.push(secret);
  await db.prisma.webhookSubscription.create({
    data: { company_id: workspace.workspace_id, url: receiver.url, events: ['message.received'], secret: secrets.seal(secret) },
  });
  const events = await recordMessageEvents(db.prisma, workspace.workspace_id, count);
  const bodies = new Map(
    (await db.prisma.event.findMany({ where: { company_id: workspace.workspace_id } })).map((event) => [`evt_${event.id}`, event.body]),
  );
  await db.close();

  onTestFinished(async () => {
    await receiver.close();
    const cleanup = await openDataDirDatabase(dataDir);
    await cleanup.prisma.webhookSubscription.deleteMany({ where: { company_id: workspace.workspace_id } });
    await cleanup.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir }),
    ENCRYPTION_KEY: encryptionKey,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    METRICS_PORT: '0',
    WEBHOOK_WORKERS: 'true',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,localhost',
    WEBHOOK_CA_FILE: caFile,
    WEBHOOK_CONCURRENCY: '16',
    WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION: '16',
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_LEASE_MS: '3000',
    WEBHOOK_RETRY_DELAYS: '100ms,200ms,400ms,800ms,1s,1s,1s,1s',
    WEBHOOK_POLL_MS: '100',
  };
  return { dataDir, env, receiver, workspace, events, bodies };
}

/** Every request was signed and carried the recorded bytes; each event always came under one delivery id. */
function expectFaithfulRequests(receiver: Receiver, bodies: Map<string, string>) {
  const deliveryIds = new Map<string, Set<string>>();
  for (const request of receiver.requests) {
    expect(request.signatureValid).toBe(true);
    expect(request.raw.equals(Buffer.from(bodies.get(request.event!.id)!, 'utf8'))).toBe(true);
    deliveryIds.set(request.event!.id, (deliveryIds.get(request.event!.id) ?? new Set()).add(request.deliveryId));
  }
  expect([...deliveryIds.values()].filter((ids) => ids.size !== 1)).toEqual([]);
}

describe('crash safety', () => {
  const EVENTS = 2000;

  it(`delivers all ${EVENTS} events when the server is killed with SIGKILL mid-flight and restarted`, async () => {
    const startedAt = Date.now();
    // Some first attempts fail, so retries are in flight across the crash too.
    const { dataDir, env, receiver, workspace, events, bodies } = await seededDelivery(EVENTS, (request) =>
      request.previousAttempts === 0 && request.deliveryId.endsWith('7') ? 503 : 200,
    );
    const seededAt = Date.now();

    const first = startProcess('dist/main.js', env);
    await receiver.waitFor('a quarter of the events before the kill', () => receiver.deliveredEventIds().size >= EVENTS / 4, 90_000);
    await stop(first, 'SIGKILL');
    const atKill = receiver.deliveredEventIds().size;
    const killedAt = Date.now();
    expect(atKill).toBeLessThan(EVENTS);

    const second = startProcess('dist/main.js', env);
    await receiver.waitFor('every event after the restart', () => receiver.deliveredEventIds().size === EVENTS, 90_000);
    // A delivery the receiver accepted just before the kill, but that was not yet recorded, is sent again once its
    // lease runs out (at least once): the server is stopped when every delivery is recorded, not when every event
    // has been seen.
    await waitForRecordedDeliveries(dataDir, workspace.workspace_id, EVENTS, 30_000);
    const doneAt = Date.now();
    expect(await stop(second, 'SIGTERM')).toBe(0);

    const duplicates = receiver.accepted().length - receiver.deliveredEventIds().size;
    console.log(
      `crash test (${databaseKind}): ${EVENTS} events, ${atKill} delivered before SIGKILL, ` +
        `${receiver.requests.length} requests in all, ${duplicates} duplicate deliveries after a 2xx; ` +
        `seeding ${seededAt - startedAt} ms, start to kill ${killedAt - seededAt} ms, restart to the last event ${doneAt - killedAt} ms`,
    );
    expect(receiver.deliveredEventIds()).toEqual(new Set(events.map((event) => event.id)));
    expectFaithfulRequests(receiver, bodies);

    const db = await openDataDirDatabase(dataDir);
    const statuses = await db.prisma.webhookDelivery.groupBy({
      by: ['status'],
      where: { company_id: workspace.workspace_id },
      _count: true,
    });
    await db.close();
    expect(statuses.map((row) => [row.status, row._count])).toEqual([['succeeded', EVENTS]]);
  }, 240_000);
});

describe('npm run worker', () => {
  it.runIf(databaseUrl)(
    'delivers events on its own next to servers that run without workers, with its own metrics listener, and stops on SIGTERM',
    async () => {
      const refused = (request: { previousAttempts: number; deliveryId: string }) =>
        request.previousAttempts === 0 && request.deliveryId.endsWith('7');
      const { env, receiver, events, bodies } = await seededDelivery(200, (request) => (refused(request) ? 503 : 200));
      const worker = startProcess('dist/worker.js', { ...env, LOG_LEVEL: 'info', WEBHOOK_DEPTH_SAMPLE_MS: '100' });
      const metricsPort = await metricsPortOf(worker);
      await receiver.waitFor('every event', () => receiver.deliveredEventIds().size === events.length, 90_000);
      expect(receiver.accepted()).toHaveLength(events.length);
      expectFaithfulRequests(receiver, bodies);

      const scrape = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      expect(sample(await scrape(), 'webhook_delivery_failures_total{reason="status"}')).toBe(receiver.requests.filter(refused).length);
      await expect.poll(async () => sample(await scrape(), 'webhook_queue_depth'), { timeout: 5000 }).toBe(0);

      expect(await stop(worker, 'SIGTERM')).toBe(0);
      expect(logs(worker).map((line) => line.msg)).toEqual(
        expect.arrayContaining(['webhook workers stopped', 'database stopped', 'metrics server stopped']),
      );
      expect(logs(worker).at(-1)).toMatchObject({ msg: 'shutdown complete', clean: true });
      await expect(fetch(`http://127.0.0.1:${metricsPort}/metrics`)).rejects.toThrow();
    },
    120_000,
  );

  it.runIf(databaseUrl)(
    'drains on SIGTERM: the attempt in flight ends and is recorded before the database closes',
    async () => {
      const { dataDir, env, receiver, workspace } = await seededDelivery(1, () => 'hang');
      const worker = startProcess('dist/worker.js', { ...env, LOG_LEVEL: 'info' });
      await receiver.waitFor('the attempt', () => receiver.requests.length === 1, 60_000);
      expect(await stop(worker, 'SIGTERM')).toBe(0);
      const messages = logs(worker).map((line) => line.msg);
      expect(messages.indexOf('webhook workers stopped')).toBeGreaterThan(-1);
      expect(messages.indexOf('webhook workers stopped')).toBeLessThan(messages.indexOf('database stopped'));

      const db = await openDataDirDatabase(dataDir);
      const delivery = await db.prisma.webhookDelivery.findFirstOrThrow({
        where: { company_id: workspace.workspace_id },
        include: { attempts: true },
      });
      await db.close();
      expect(delivery).toMatchObject({ status: 'pending', attempt_count: 1 });
      expect(delivery.attempts.map((attempt) => attempt.error)).toEqual(['timed out after 2000 ms']);
    },
    60_000,
  );

  it.skipIf(databaseUrl)(
    'refuses to start on the embedded database, which belongs to the server process',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'crm-webhooks-'));
      onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }));
      const { DATABASE_URL: _unset, ...env } = process.env;
      const worker = startProcess('dist/worker.js', { ...env, DATA_DIR: dataDir });
      const [code] = await once(worker.process, 'exit');
      expect(code).toBe(1);
      expect(worker.output.join('')).toContain('npm run worker needs DATABASE_URL');
    },
    60_000,
  );
});
