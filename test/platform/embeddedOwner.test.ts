// The embedded database has one owner (infra/db/ownership.ts), tested with real processes as an operator meets
// them: the server (`node dist/main.js`) owns DATA_DIR and `npm run cli` works through it; a second server
// on the same DATA_DIR is refused while the first keeps serving; the server killed with SIGKILL while the CLI
// writes leaves every committed row and no PANIC, and its stale lock does not block the next start; the socket
// is the owner's alone (mode 0600). On PostgreSQL (TEST_DATABASE_URL) there is no lock and no socket.
import { execFile } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../infra/db/database.js';
import { selfSignedCertificatePaths } from '../../infra/transport/certificate.js';
import { cliArguments, httpsFetch, startServer, tempDir, type ServerProcess } from '../support/server.js';

const run = promisify(execFile);
const onPostgres = Boolean(process.env['TEST_DATABASE_URL']);

type Cli = { code: number; stdout: string; stderr: string };

/** `npm run cli -- <args>` on `dataDir`, as an operator runs it next to `npm start`. */
async function cli(dataDir: string, ...args: string[]): Promise<Cli> {
  const { DATABASE_URL: _operators, ...inherited } = process.env;
  const env = {
    ...inherited,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(onPostgres ? { DATABASE_URL: process.env['TEST_DATABASE_URL'] } : {}),
  };
  try {
    const { stdout, stderr } = await run(process.execPath, cliArguments(...args), { env, maxBuffer: 16 << 20 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function usersOf(server: ServerProcess, apiKey: string): Promise<{ status: number; emails: string[] }> {
  const answer = await httpsFetch(server.port, '/graphql', {
    caFile: selfSignedCertificatePaths(server.dataDir).certFile,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ query: '{ users { email } }' }),
  });
  const body = answer.status === 200 ? (JSON.parse(answer.body) as { data: { users: { email: string }[] } }) : undefined;
  return { status: answer.status, emails: body?.data.users.map((user) => user.email) ?? [] };
}

function sockets(dataDir: string): string[] {
  return readdirSync(dataDir).filter((name) => /^\.s\.PGSQL\.\d+$/.test(name));
}

/** Rows committed so far, read through the running server as the CLI reads them. */
async function customerCount(dataDir: string): Promise<number> {
  const db = await openDatabase({ dataDir });
  try {
    return await db.prisma.customer.count();
  } finally {
    await db.close();
  }
}

describe.skipIf(onPostgres)('the embedded database while the server runs', { timeout: 240_000 }, () => {
  const dataDir = tempDir('owner');
  let server: ServerProcess;
  let workspace: { workspace_id: string; api_key: string };
  afterAll(() => server?.stop('SIGKILL'));

  /** Starts the server again on DATA_DIR: it opens the database without a PANIC and the workspace is there. */
  async function restartedWithEverything() {
    server = await startServer({ dataDir });
    expect(server.output()).not.toContain('PANIC');
    expect(await usersOf(server, workspace.api_key)).toEqual({ status: 200, emails: ['owner@owner.example'] });
  }

  it('`npm run cli -- workspace create --json` goes through the server: its key works at once and after a restart', async () => {
    server = await startServer({ dataDir });
    const created = await cli(dataDir, 'workspace', 'create', '--name', 'Owner Co', '--email', 'owner@owner.example', '--json');
    expect(created.stderr).toBe('');
    workspace = JSON.parse(created.stdout) as typeof workspace;
    expect(await usersOf(server, workspace.api_key)).toEqual({ status: 200, emails: ['owner@owner.example'] });
    // `npm run db:migrate` goes through the server too.
    expect(await cli(dataDir, 'db', 'migrate')).toMatchObject({ code: 0, stdout: 'The database is up to date.\n' });

    expect(await server.stop('SIGTERM')).toBe(0);
    expect(sockets(dataDir)).toEqual([]);
    await restartedWithEverything();
  });

  it('serves the database on a socket in DATA_DIR that only its owner may use (mode 0600)', () => {
    const socket = server.logs().find((line) => typeof line['database_socket'] === 'string')?.['database_socket'] as string;
    expect(socket.startsWith(join(dataDir, '.s.PGSQL.'))).toBe(true);
    const stat = statSync(socket);
    expect(stat.isSocket()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o600);
  });

  it('refuses a second server on the same DATA_DIR with what to do; the first keeps serving, and after a restart has everything', async () => {
    const second = startServer({ dataDir });
    await expect(second).rejects.toThrow(/server exited \(1\)/);
    const message = await second.catch((error: Error) => error.message);
    expect(message).toContain(`The embedded database in DATA_DIR ${dataDir} is already open in the server (pid ${server.child.pid}`);
    expect(message).toContain('run several servers on PostgreSQL (DATABASE_URL)');
    expect(await usersOf(server, workspace.api_key)).toEqual({ status: 200, emails: ['owner@owner.example'] });
    expect(server.child.exitCode).toBeNull();

    expect(await server.stop('SIGTERM')).toBe(0);
    await restartedWithEverything();
  });

  it('keeps every committed row when the server is killed (SIGKILL) while the CLI writes, and starts again past its stale lock', async () => {
    const before = await customerCount(dataDir);
    const seeding = cli(dataDir, 'seed', '--contacts', '20000', '--json');
    let seedEnded = false;
    void seeding.finally(() => (seedEnded = true));
    let committed = before;
    // The seed's first batch (a thousand contacts with their conversations and messages) takes 5 s on an idle machine
    // and 15 s under two busy loops. A seed that ends first fails here with what it said (on CI's shared cores it once
    // gave up at its first batch, past Prisma's default 5 s for a transaction).
    for (const deadline = Date.now() + 150_000; committed === before && !seedEnded && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      committed = await customerCount(dataDir);
    }
    if (committed === before) committed = await customerCount(dataDir);
    const ended = seedEnded ? await seeding : null;
    expect(
      committed,
      ended ? `the seed ended (${ended.code}) first: ${ended.stderr} ${ended.stdout}` : 'the seed committed nothing',
    ).toBeGreaterThan(before);
    const [stale] = sockets(dataDir);
    await server.stop('SIGKILL');
    expect(sockets(dataDir)).toEqual([stale]);

    const seeded = await seeding;
    // The seed either finished before the kill or failed saying why; it never hangs or leaves a half transaction.
    if (seeded.code !== 0) expect(seeded.stderr).toContain('which stopped before the command finished');

    await restartedWithEverything();
    // The dead owner's socket was succeeded by the next generation and removed.
    expect(sockets(dataDir)).toEqual([`.s.PGSQL.${Number(stale!.split('.').pop()) + 1}`]);
    expect(await customerCount(dataDir)).toBeGreaterThanOrEqual(committed);
  });
});

describe.runIf(onPostgres)('PostgreSQL (DATABASE_URL)', { timeout: 120_000 }, () => {
  it('takes no lock and opens no socket: the CLI and the server each connect to PostgreSQL', async () => {
    const dataDir = tempDir('owner-pg');
    const server = await startServer({ dataDir });
    try {
      const created = await cli(dataDir, 'workspace', 'create', '--name', 'Pg Co', '--email', 'owner@pg-owner.example', '--json');
      const workspace = JSON.parse(created.stdout) as { api_key: string };
      expect(await usersOf(server, workspace.api_key)).toEqual({ status: 200, emails: ['owner@pg-owner.example'] });
      expect(sockets(dataDir)).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});
