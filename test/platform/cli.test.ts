// The operator CLI, run as a real process: `workspace create --json` prints exactly one JSON object whose
// key works against the service; keys can be created, listed and revoked.
import { describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openDatabase } from '../../infra/db/database.js';
import { createApp } from '../../app/createApp.js';
import { createLogger } from '../../infra/observability/logger.js';
import { createSecretBox, loadEncryptionKey } from '../../infra/crypto/secrets.js';
import { closeServices, createServices } from '../../app/services.js';
import { TEST_MESSAGING } from '../support/harness.js';
import { cliArguments } from '../support/server.js';
import { createTargetGuard } from '../../infra/net/targetGuard.js';
import { createSessionStore } from '../../infra/mcp/sessionStore.js';

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), 'crm-cli-'));
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  DATABASE_URL: process.env['TEST_DATABASE_URL'] ?? '',
  LOG_LEVEL: 'silent',
};
if (!env.DATABASE_URL) delete (env as Record<string, string | undefined>)['DATABASE_URL'];

async function cli(...args: string[]) {
  return run(process.execPath, cliArguments(...args), { env, cwd: process.cwd() });
}

/** The CLI with `input` piped to its standard input, as `printf %s "$PASSWORD" | npm run cli -- …` does. */
function cliWithInput(input: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, cliArguments(...args), { env, cwd: process.cwd() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

type ServiceCalls = ((key: string, query: string) => Promise<Response>) & { signIn(email: string, password: string): Promise<Response> };

/** Runs GraphQL (and sign-in) against the CLI's database with the real app, after the CLI process has exited. */
async function asService<T>(work: (fetch: ServiceCalls) => Promise<T>): Promise<T> {
  const db = await openDatabase(env.DATABASE_URL ? { url: env.DATABASE_URL } : { dataDir });
  const logger = createLogger('silent');
  const secrets = createSecretBox(loadEncryptionKey(undefined, dataDir));
  const services = createServices({
    prisma: db.prisma,
    sql: db.sql,
    searchSql: db.searchSql,
    listen: db.listen,
    secrets,
    version: '0.1.0',
    media: { directory: join(dataDir, 'media'), maxBytes: 0 },
    logger,
    messaging: TEST_MESSAGING,
    webhookTargets: createTargetGuard(),
    publicBaseUrl: 'https://crm.example.test',
  });
  const { yoga } = createApp(services, { graphiql: false, logger, sessionStore: createSessionStore(db.sql, db.listen, 'cli-test') });
  try {
    const calls = Object.assign(
      async (key: string, query: string) =>
        yoga.fetch('http://service.test/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
          body: JSON.stringify({ query }),
        }),
      {
        signIn: async (email: string, password: string) =>
          yoga.fetch('http://service.test/auth/sign-in', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email, password }),
          }),
      },
    );
    return await work(calls);
  } finally {
    await closeServices(services);
    await db.close();
  }
}

describe('npm run cli', { timeout: 120_000 }, () => {
  it('prints usage with --help', async () => {
    const { stdout } = await cli('--help');
    expect(stdout).toContain('workspace create --name N --email E [--password-stdin] [--json]');
    expect(stdout).toContain('user set-password --email E [--workspace ID] --password-stdin');
  });

  it('creates a workspace and prints exactly one JSON object with a working all-scopes key', async () => {
    const { stdout } = await cli('workspace', 'create', '--name', 'Cli Co', '--email', 'owner@cli.example', '--json');
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const created = JSON.parse(lines[0]!);
    expect(Object.keys(created).sort()).toEqual(
      ['api_key', 'app_secret', 'integration_id', 'phone_number_id', 'user_id', 'verify_token', 'workspace_id'].sort(),
    );
    const users = await asService(async (fetch) => (await fetch(created.api_key, '{ users { id email role } }')).json());
    expect(users.data.users).toEqual([{ id: created.user_id, email: 'owner@cli.example', role: 'owner' }]);

    const { stdout: keyOut } = await cli('key', 'create', '--workspace', created.workspace_id, '--scopes', 'users', '--json');
    const key = JSON.parse(keyOut);
    expect(key).toMatchObject({ scopes: ['users'], api_key: expect.stringMatching(/^mcrm_/) });
    const { stdout: listOut } = await cli('key', 'list', '--workspace', created.workspace_id, '--json');
    expect(JSON.parse(listOut).map((row: { id: string }) => row.id)).toContain(key.id);
    expect(listOut).not.toContain(key.api_key);

    await cli('key', 'revoke', '--workspace', created.workspace_id, '--key', key.id, '--json');
    const status = await asService(async (fetch) => (await fetch(key.api_key, '{ users { id } }')).status);
    expect(status).toBe(401);
  });

  it('sets the owner’s console password from standard input at creation, and resets it with user set-password', async () => {
    const created = await cliWithInput(
      'first password 1\n',
      'workspace',
      'create',
      '--name',
      'Pw Co',
      '--email',
      'pw@cli.example',
      '--password-stdin',
      '--json',
    );
    expect(created.code, created.stderr).toBe(0);
    expect((await asService((service) => service.signIn('pw@cli.example', 'first password 1'))).status).toBe(200);

    const tooShort = await cliWithInput('short', 'user', 'set-password', '--email', 'pw@cli.example', '--password-stdin');
    expect(tooShort).toMatchObject({ code: 1, stderr: expect.stringContaining('VALIDATION_ERROR: Invalid password') });
    const reset = await cliWithInput(
      'second password 2',
      'user',
      'set-password',
      '--email',
      'PW@cli.example',
      '--password-stdin',
      '--json',
    );
    expect(reset.code, reset.stderr).toBe(0);
    expect(JSON.parse(reset.stdout)).toEqual({
      user_id: JSON.parse(created.stdout).user_id,
      workspace_id: JSON.parse(created.stdout).workspace_id,
    });
    const [oldPassword, newPassword] = await asService(async (service) => [
      (await service.signIn('pw@cli.example', 'first password 1')).status,
      (await service.signIn('pw@cli.example', 'second password 2')).status,
    ]);
    expect([oldPassword, newPassword]).toEqual([401, 200]);
  });

  it('refuses bad input with a clear message and a non-zero exit', async () => {
    await expect(cli('workspace', 'create', '--name', 'X', '--email', 'not-an-email')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('VALIDATION_ERROR: Invalid email'),
    });
    await expect(cli('key', 'create', '--workspace', '01a1fc9c-0000-7000-8000-000000000000', '--scopes', 'root')).rejects.toMatchObject({
      stderr: expect.stringContaining('scopes'),
    });
    for (const command of [
      ['key', 'list', '--workspace', 'acme'],
      ['key', 'revoke', '--workspace', 'acme', '--key', '01a1fc9c-0000-7000-8000-000000000000'],
    ]) {
      await expect(cli(...command)).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining('VALIDATION_ERROR: Invalid workspace {"workspace":"must be a UUID"}'),
      });
    }
  });

  it('seeds a demo workspace with contacts, conversations, messages and tags, printing its key', async () => {
    const { stdout } = await cli('seed', '--contacts', '40', '--json');
    const seeded = JSON.parse(stdout);
    const counts = await asService(async (fetch) =>
      (
        await fetch(
          seeded.api_key,
          '{ contacts(limit: 100) { data { id } } conversations(limit: 100) { data { id customer { name } } } tags { tags { name } } }',
        )
      ).json(),
    );
    expect(counts.data.contacts.data).toHaveLength(40);
    expect(counts.data.conversations.data).toHaveLength(40);
    expect(counts.data.conversations.data[0].customer.name).toMatch(/^\w+ \w+$/);
    expect(counts.data.tags.tags.map((tag: { name: string }) => tag.name)).toEqual(['customer', 'lead', 'newsletter', 'support', 'vip']);
  });

  it('applies migrations on demand', async () => {
    const { stdout } = await cli('db', 'migrate');
    expect(stdout.trim()).toBe('The database is up to date.');
    rmSync(dataDir, { recursive: true, force: true });
  });
});
