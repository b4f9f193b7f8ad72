// The service as its users see it, for tests: the real app (yoga.fetch, no port) on a test database,
// plus helpers to create workspaces and keys the way the CLI does.
import { afterAll } from 'vitest';
import { randomBytes } from 'node:crypto';
import { openDatabase, type Database } from '../../db/database.js';
import { migrate } from '../../db/migrate.js';
import { createSecretBox } from '../../crypto/secrets.js';
import { createApp, type App } from '../../app/createApp.js';
import { createLogger } from '../../app/logger.js';
import { VERSION } from '../../app/runtime.js';
import type { Services } from '../../resolvers/context.js';
import { createWorkspace, type CreatedWorkspace } from '../../resolvers/workspaces.js';
import { createApiKey } from '../../resolvers/apiKeys.js';

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
};

export type GraphQLErrorJson = { message: string; path?: string[]; extensions: Record<string, unknown> & { code?: string } };

export async function openTestDatabase(): Promise<Database> {
  const url = process.env['TEST_DATABASE_URL'];
  const db = await openDatabase(url ? { url, poolSize: 4 } : { embeddedDir: 'memory://' });
  if (!url) await migrate(db.sql);
  return db;
}

let counter = 0;

/** Opens the harness for one test file; closed automatically after the file. */
export async function openHarness(): Promise<Harness> {
  const db = await openTestDatabase();
  const services: Services = {
    prisma: db.prisma,
    secrets: createSecretBox(randomBytes(32)),
    version: VERSION,
    publicBaseUrl: 'https://crm.example.test',
  };
  const app = createApp(services, { graphiql: false, logger: createLogger('silent') });
  afterAll(() => db.close());

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
  };
}
