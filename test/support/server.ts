// The real server as a child process, as `npm start` runs it (`node dist/main.js`, built by test/support/globalSetup.ts),
// for tests of the transport itself: HTTPS, plain-HTTP refusal, time-outs, metrics listener, shutdown, several
// instances. Each server gets its own DATA_DIR and free ports (PORT=0, METRICS_PORT=0) and is killed after the test file.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { tmpdir } from 'node:os';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { openDatabase } from '../../infra/db/database.js';
import { migrate } from '../../infra/db/migrate.js';
import { createSecretBox } from '../../infra/crypto/secrets.js';
import { createWorkspace } from '../../resolvers/workspace/workspaces.js';
import { createApiKey } from '../../resolvers/workspace/apiKeys.js';
import { ALL_KEY_SCOPES } from '../../resolvers/workspace/scopes.js';
import { ALLOCATOR_ENV, NODE_FLAGS } from '../../infra/config/processSettings.js';

const ROOT = new URL('../../', import.meta.url).pathname;

const START_TIMEOUT_MS = 90_000;

export type LogLine = Record<string, unknown> & { msg: string };

export type ServerProcess = {
  port: number;
  metricsPort: number;
  dataDir: string;
  child: ChildProcess;
  /** Everything the process printed so far, as text. */
  output(): string;
  logs(): LogLine[];
  waitForLog(predicate: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
};

/** A child process's arguments for `npm run cli -- <args>`, as npm runs it (node scripts/start.mjs cli <args>). */
export function cliArguments(...args: string[]): string[] {
  return [join(ROOT, 'scripts/start.mjs'), 'cli', ...args];
}

const children = new Set<ChildProcess>();

/** Kills the servers a test file started and left running; test/support/eachFile.ts calls it after every file. */
export function killStartedServers(): void {
  for (const child of children) child.kill('SIGKILL');
}

/** A fresh temporary directory, removed after the test file. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `crm-${prefix}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The database a spawned server uses: TEST_DATABASE_URL when set, else the embedded one in its DATA_DIR. */
function databaseEnv(): Record<string, string> {
  const url = process.env['TEST_DATABASE_URL'];
  return url ? { DATABASE_URL: url } : {};
}

export async function startServer(options: { dataDir: string; env?: Record<string, string> }): Promise<ServerProcess> {
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '',
    HOME: process.env['HOME'] ?? '',
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    METRICS_PORT: '0',
    LOG_LEVEL: 'info',
    ...ALLOCATOR_ENV,
    DATA_DIR: options.dataDir,
    // Workers would claim other test files' deliveries, campaigns and agent runs on a shared PostgreSQL (this env replaces
    // the one vitest.config.ts sets for child processes).
    WEBHOOK_WORKERS: 'false',
    CAMPAIGN_WORKERS: 'false',
    AGENT_WORKERS: 'false',
    ...databaseEnv(),
    ...options.env,
  };
  const child = spawn(process.execPath, [...NODE_FLAGS, 'dist/main.js'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let text = '';
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    for (const wake of waiters) wake();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      children.delete(child);
      for (const wake of waiters) wake();
      resolve(code);
    }),
  );

  const logs = (): LogLine[] =>
    text
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);

  const waitForLog: ServerProcess['waitForLog'] = (predicate, timeoutMs = START_TIMEOUT_MS) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = logs().find(predicate);
        if (found) {
          done();
          resolve(found);
        } else if (child.exitCode !== null) {
          done();
          reject(new Error(`server exited (${child.exitCode}) before the expected log line:\n${text}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`expected log line did not appear within ${timeoutMs} ms:\n${text}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  const listening = await waitForLog((line) => typeof line['port'] === 'number' && line.msg.includes('listening'));
  const metrics = await waitForLog((line) => typeof line['metrics_port'] === 'number');
  return {
    port: listening['port'] as number,
    metricsPort: metrics['metrics_port'] as number,
    dataDir: options.dataDir,
    child,
    output: () => text,
    logs,
    waitForLog,
    exited,
    stop(signal = 'SIGTERM') {
      child.kill(signal);
      return exited;
    },
  };
}

export type PreparedWorkspace = { workspaceId: string; apiKey: string; secondKey: string; encryptionKey: string };

/**
 * A workspace with two all-scopes keys in the database the servers will use, created before they start
 * (the embedded database is opened by one process at a time, and copied only while closed). With `copies`, the embedded database is
 * then copied to those data directories, so several servers know the same keys.
 */
export async function prepareWorkspace(dataDir: string, copies: string[] = []): Promise<PreparedWorkspace> {
  const url = process.env['TEST_DATABASE_URL'];
  const db = await openDatabase(url ? { url, poolSize: 2 } : { dataDir });
  const encryptionKey = randomBytes(32).toString('hex');
  try {
    if (!url) await migrate(db.sql);
    const secrets = createSecretBox(Buffer.from(encryptionKey, 'hex'));
    const created = await createWorkspace(
      { prisma: db.prisma, secrets },
      { name: 'Edge test', email: `edge-${randomBytes(6).toString('hex')}@example.com` },
    );
    const second = await createApiKey(db.prisma, { workspaceId: created.workspace_id, scopes: [...ALL_KEY_SCOPES] });
    return { workspaceId: created.workspace_id, apiKey: created.api_key, secondKey: second.api_key, encryptionKey };
  } finally {
    await db.close();
    if (!url) for (const copy of copies) cpSync(join(dataDir, 'pglite'), join(copy, 'pglite'), { recursive: true });
  }
}

export type HttpsAnswer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** One HTTPS request that trusts exactly the given certificate file. */
export function httpsFetch(
  port: number,
  path: string,
  options: { caFile: string; host?: string; method?: string; headers?: Record<string, string>; body?: string },
): Promise<HttpsAnswer> {
  const requestOptions: RequestOptions = {
    host: options.host ?? '127.0.0.1',
    port,
    path,
    method: options.method ?? 'GET',
    headers: options.headers,
    ca: readFileSync(options.caFile),
    agent: false,
  };
  return new Promise((resolve, reject) => {
    const req = httpsRequest(requestOptions, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** fetch for the graphql-sse client over HTTPS, trusting exactly the server's self-signed certificate. */
export function trustingFetch(caFile: string): typeof fetch {
  const ca = readFileSync(caFile);
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const target = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      const request = httpsRequest(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: init.method ?? 'GET',
          headers: Object.fromEntries(new Headers(init.headers)),
          ca,
        },
        (response) => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') headers.set(name, value);
          resolve(new Response(Readable.toWeb(response) as ReadableStream, { status: response.statusCode ?? 0, headers }));
        },
      );
      init.signal?.addEventListener('abort', () => request.destroy());
      request.on('error', reject);
      request.end(typeof init.body === 'string' ? init.body : undefined);
    });
}
