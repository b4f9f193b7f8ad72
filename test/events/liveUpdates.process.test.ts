// Live updates that nothing but a stop can end, as a newcomer meets them: a real server process (`node dist/main.js`)
// and a graphql-sse subscriber; then `npm run cli` commands against the running server, a psql-like session
// (connect, query, DISCARD ALL, disconnect; on the embedded database through the server's socket), a migration run,
// and the next signed inbound webhook still reaches the subscriber within LIVE_MS. On PostgreSQL, a listening
// connection the database drops is re-established and the events committed meanwhile are replayed to the subscriber.
// The hub has no polling: an event arrives only through a database notice, so a stopped listener shows as no arrival at
// all. LIVE_MS is generous because this file runs while another test run shares the machine's two cores (a live update
// once took 2.2 s on CI); alone, each arrives in tens of milliseconds.
import { execFile } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from 'graphql-sse';
import { selfSignedCertificatePaths } from '../../infra/transport/certificate.js';
import { cliArguments, httpsFetch, startServer, tempDir, trustingFetch, type ServerProcess } from '../support/server.js';
import { hubSignature, inboundPayload } from '../support/whatsappPayloads.js';

const run = promisify(execFile);
const databaseUrl = process.env['TEST_DATABASE_URL'];
const dataDir = tempDir('live-process');
const encryptionKey = randomBytes(32).toString('hex');
const LIVE_MS = 3000;

/** `npm run cli -- <args> --json` next to the running server, as an operator runs it. */
async function cli<T>(...args: string[]): Promise<T> {
  const { DATABASE_URL: _operators, ...inherited } = process.env;
  const env = {
    ...inherited,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ENCRYPTION_KEY: encryptionKey,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const { stdout } = await run(process.execPath, cliArguments(...args, '--json'), { env });
  return JSON.parse(stdout) as T;
}

/** A psql-like session on the database the server uses: through its socket on the embedded database. */
function psqlSession(): pg.Client {
  if (databaseUrl) return new pg.Client({ connectionString: databaseUrl });
  const socket = readdirSync(dataDir).find((name) => /^\.s\.PGSQL\.\d+$/.test(name));
  return new pg.Client({ host: dataDir, port: Number(socket!.split('.').pop()), user: 'postgres', database: 'postgres' });
}

type Workspace = { workspace_id: string; api_key: string; phone_number_id: string; app_secret: string };

describe('live updates while the CLI, a psql session and a migration run', { timeout: 180_000 }, () => {
  let server: ServerProcess;
  let workspace: Workspace;
  let client: Client;
  const arrivals: { body: string; at: number }[] = [];
  const errors: unknown[] = [];

  beforeAll(async () => {
    server = await startServer({ dataDir, env: { ENCRYPTION_KEY: encryptionKey } });
    workspace = await cli<Workspace>(
      'workspace',
      'create',
      '--name',
      'Live',
      '--email',
      `live-${randomBytes(4).toString('hex')}@example.com`,
    );
    client = createClient({
      url: `https://127.0.0.1:${server.port}/graphql`,
      headers: { authorization: `Bearer ${workspace.api_key}` },
      fetchFn: trustingFetch(selfSignedCertificatePaths(dataDir).certFile),
      retryAttempts: 0,
    });
    client.subscribe<{ messageCreated: { message: { body: string } } }>(
      { query: 'subscription { messageCreated { id message { body } } }' },
      {
        next: (result) => result.data && arrivals.push({ body: result.data.messageCreated.message.body, at: Date.now() }),
        error: (error) => errors.push(error),
        complete: () => {},
      },
    );
  });
  afterAll(async () => {
    client?.dispose();
    await server?.stop();
  });

  const post = (text: string) => {
    const raw = JSON.stringify(inboundPayload(workspace.phone_number_id, { from: `1555${randomInt(1_000_000, 9_999_999)}`, text }));
    return httpsFetch(server.port, '/webhooks/whatsapp', {
      caFile: selfSignedCertificatePaths(dataDir).certFile,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(raw, workspace.app_secret) },
      body: raw,
    });
  };

  /** Posts an inbound message and resolves with how long it took to reach the subscriber. */
  async function delivered(text: string, timeout = 5000): Promise<number> {
    const before = arrivals.length;
    const postedAt = Date.now();
    expect((await post(text)).status).toBe(200);
    await expect.poll(() => arrivals.length, { timeout, interval: 20 }).toBe(before + 1);
    expect(arrivals.at(-1)!.body).toBe(text);
    return arrivals.at(-1)!.at - postedAt;
  }

  it('reaches the subscriber before and after CLI commands, a psql session and a migration run', async () => {
    // The subscription joins the hub once the server has answered its head; a first message warms the process up.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await delivered('Warming up', 10_000);
    expect(await delivered('Before the CLI')).toBeLessThan(LIVE_MS);

    await cli('key', 'list', '--workspace', workspace.workspace_id);
    await cli('key', 'create', '--workspace', workspace.workspace_id, '--scopes', 'customers');
    const session = psqlSession();
    await session.connect();
    try {
      expect((await session.query('SELECT count(*)::int AS n FROM workspaces')).rows[0]).toEqual({ n: expect.any(Number) });
      await session.query('UNLISTEN *');
      await session.query('DISCARD ALL');
    } finally {
      await session.end();
    }
    expect(await cli('db', 'migrate')).toEqual({ applied: [] });

    expect(await delivered('After the CLI')).toBeLessThan(LIVE_MS);
    expect(errors).toEqual([]);
  });

  it.runIf(databaseUrl)('re-listens after the database drops the listening connection, replaying what committed meanwhile', async () => {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      const dropped = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%' AND pid <> pg_backend_pid()",
      );
      expect(dropped.rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    // Committed while the server has no listener: it arrives once the server listens again and reads the feed.
    await delivered('While nobody listened');
    expect(await delivered('After listening again')).toBeLessThan(LIVE_MS);
    expect(errors).toEqual([]);
  });
});
