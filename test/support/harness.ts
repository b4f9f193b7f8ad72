// The service as its users see it, for tests: the real app (yoga.fetch, no port) on a test database,
// plus helpers to create workspaces and keys the way the CLI does.
import { afterAll } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMBEDDED_TEMPLATE, openDatabase, type Database } from '../../infra/db/database.js';
import { migrate } from '../../infra/db/migrate.js';
import { createSecretBox } from '../../infra/crypto/secrets.js';
import { createApp, type App } from '../../app/createApp.js';
import { createLogger } from '../../infra/observability/logger.js';
import { createEdge } from '../../app/edge.js';
import { loadSettings } from '../../infra/config/settings.js';
import { VERSION } from '../../app/runtime.js';
import type { Services } from '../../resolvers/shared/context.js';
import { closeServices, createServices } from '../../app/services.js';
import type { MessagingSettings } from '../../adapters/providers/registry.js';
import { createWorkspace, type CreatedWorkspace } from '../../resolvers/workspace/workspaces.js';
import { createApiKey } from '../../resolvers/workspace/apiKeys.js';
import { createTargetGuard, type TargetGuard } from '../../infra/net/targetGuard.js';
import { createSessionStore, type SessionStore } from '../../infra/mcp/sessionStore.js';

export type Harness = {
  db: Database;
  services: Services;
  app: App;
  /** A new workspace with an all-scopes key. */
  workspace(name?: string): Promise<CreatedWorkspace>;
  /** A key of an existing workspace with only the given scopes. */
  key(workspaceId: string, scopes: string[]): Promise<string>;
  fetch(path: string, init?: RequestInit & { key?: string }): Promise<Response>;
  graphql<Data = Record<string, unknown>>(
    key: string | null,
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<{ status: number; body: { data?: Data | null; errors?: GraphQLErrorJson[] } }>;
  /** A store of MCP sessions on the harness's database, as another instance of the service would have. */
  sessionStore(): SessionStore;
  /** Stops the services' background work and closes the database. */
  close(): Promise<void>;
};

export type GraphQLErrorJson = { message: string; path?: string[]; extensions: Record<string, unknown> & { code?: string } };

/** The build's migrated embedded database (written by globalSetup's build), read once per test process. */
let snapshot: Promise<Blob> | undefined;
function embeddedSnapshotCopy(): Promise<Blob> {
  snapshot ??= readFile(EMBEDDED_TEMPLATE).then((bytes) => new Blob([bytes]));
  return snapshot;
}

/** The server database named by TEST_DATABASE_URL, or else a new embedded database in memory, migrated. */
export async function openTestDatabase(): Promise<Database> {
  const url = process.env['TEST_DATABASE_URL'];
  // Five: one of them is the process's listening connection (infra/db/notifications.ts), shared by every channel.
  if (url) return openDatabase({ url, poolSize: 5 });
  const db = await openDatabase({ snapshot: await embeddedSnapshotCopy() });
  // Applies what the copy lacks, if anything: none when it was taken in this run.
  await migrate(db.sql);
  return db;
}

let sharedEmbedded: Promise<Database> | undefined;

/**
 * A harness's database: the server database named by TEST_DATABASE_URL, or else the embedded database in memory
 * that every harness of this test process shares, as harnesses share the server database on PostgreSQL (files
 * isolate by workspace either way): a copy opened for each file cost about half a second a file. Closing a harness
 * leaves the shared one open for the next file; the process's end closes it. A test that needs a database of its
 * own, to close it or to change it, opens one with openTestDatabase.
 */
function harnessDatabase(): Promise<Database> {
  if (process.env['TEST_DATABASE_URL']) return openTestDatabase();
  sharedEmbedded ??= openTestDatabase();
  return sharedEmbedded.then((db) => ({ ...db, close: async () => {} }));
}

let counter = 0;

export type HarnessOptions = {
  messaging?: Partial<MessagingSettings>;
  /** Requests per key per minute; the production default (100) unless a test walks more pages than that. */
  rateLimitPerMinute?: number;
  /** The SSRF guard for webhook receivers; by default private targets are refused, as in production. */
  webhookTargets?: TargetGuard;
  /** How long API keys are remembered; the production default (10 s) unless a test revokes keys. */
  apiKeyCacheSeconds?: number;
  /** Bytes of fetched media kept; 64 MB in a folder of its own unless a test bounds it. */
  mediaCacheMaxBytes?: number;
  /** Serve GraphiQL at GET /graphql, as `npm start` does (GRAPHIQL); off unless a test is about that page. */
  graphiql?: boolean;
  /** PUBLIC_BASE_URL (https://crm.example.test unless a test serves the app on a port and says where). */
  publicBaseUrl?: string | (() => string);
  /** OAuth token lifetimes and the CA certificates client metadata documents' hosts are trusted by. */
  oauth?: { accessTokenSeconds?: number; refreshTokenSeconds?: number; extraCa?: string[] };
};

/** Test defaults: the sandbox reports delivery steps quickly; the Graph URL points nowhere unless a test sets it. */
export const TEST_MESSAGING: MessagingSettings = {
  sandboxStatusIntervalMs: 5,
  sandboxTemplateReviewMs: 50,
  whatsappGraphUrl: 'http://127.0.0.1:9/v22.0',
  whatsappTimeoutMs: 5_000,
  whatsappMediaTimeoutMs: 5_000,
  templateCacheTtlMs: 60_000,
  sendRetry: { attempts: 3, baseDelayMs: 10, pairIntervalMs: 30 },
};

/** The statuses a send's answer may show for an accepted message: the harness's sandbox moves it on every 5 ms, so a
 * busy machine may read it back delivered or read already. */
export const ACCEPTED_STATUSES = ['sent', 'delivered', 'read'];

/**
 * Opens the harness for one test file and closes it after the file. Call it at the top of the file (top-level
 * await), not inside a hook: vitest ignores an afterAll registered while a hook runs, so the harness would
 * stay open. A file that opens its harness in a hook uses useWorkspace (test/support/workspace.ts).
 */
export async function openHarness(options: HarnessOptions = {}): Promise<Harness> {
  const harness = await startHarness(options);
  afterAll(() => harness.close());
  return harness;
}

/** The harness, open until close(). */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const db = await harnessDatabase();
  const logger = createLogger('silent');
  const services = createServices({
    prisma: db.prisma,
    sql: db.sql,
    searchSql: db.searchSql,
    listen: db.listen,
    secrets: createSecretBox(randomBytes(32)),
    version: VERSION,
    logger,
    messaging: { ...TEST_MESSAGING, ...options.messaging },
    media: { directory: mkdtempSync(join(tmpdir(), 'crm-media-')), maxBytes: options.mediaCacheMaxBytes ?? 64 * 1024 * 1024 },
    webhookTargets: options.webhookTargets ?? createTargetGuard(),
    publicBaseUrl: options.publicBaseUrl ?? 'https://crm.example.test',
    oauth: { accessTokenSeconds: 3600, refreshTokenSeconds: 30 * 86_400, ...options.oauth },
  });
  const edge = createEdge(
    {
      ...loadSettings({}),
      ...(options.rateLimitPerMinute ? { RATE_LIMIT_PER_MINUTE: options.rateLimitPerMinute } : {}),
      ...(options.apiKeyCacheSeconds !== undefined ? { API_KEY_CACHE_SECONDS: options.apiKeyCacheSeconds } : {}),
    },
    { logger },
  );
  const app = createApp(services, {
    graphiql: options.graphiql ?? false,
    logger,
    edge,
    sessionStore: createSessionStore(db.sql, db.listen, randomUUID()),
  });

  const fetchApp: Harness['fetch'] = (path, init = {}) => {
    const { key, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (key) headers.set('authorization', `Bearer ${key}`);
    return Promise.resolve(app.yoga.fetch(`http://service.test${path}`, { ...rest, headers }));
  };

  return {
    db,
    services,
    app,
    sessionStore: () => createSessionStore(db.sql, db.listen, randomUUID()),
    workspace: (name) =>
      createWorkspace(services, { name: name ?? `Workspace ${++counter}`, email: `owner${Date.now()}${++counter}@example.com` }),
    key: async (workspaceId, scopes) => (await createApiKey(db.prisma, { workspaceId, scopes })).api_key,
    fetch: fetchApp,
    async graphql(key, query, variables) {
      const response = await fetchApp('/graphql', {
        method: 'POST',
        key: key ?? undefined,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.status, body: await response.json() };
    },
    async close() {
      await app.mcpSessions.closeAll();
      await closeServices(services);
      await db.close();
    },
  };
}
