// An empty database for a test that needs a service with no workspace at all (the first run): on PostgreSQL a
// new database beside TEST_DATABASE_URL's, dropped after the file; on the embedded database nothing is needed,
// since a new DATA_DIR starts empty.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll } from 'vitest';

/** The URL of `database` on TEST_DATABASE_URL's server. */
export function databaseOnTestServer(database: string): string {
  const url = new URL(process.env['TEST_DATABASE_URL']!);
  url.pathname = `/${database}`;
  return url.toString();
}

/** The environment a spawned server needs to use an empty database. */
export async function emptyDatabaseEnv(): Promise<Record<string, string>> {
  if (!process.env['TEST_DATABASE_URL']) return {};
  const name = `crm_fresh_${randomBytes(6).toString('hex')}`;
  const admin = databaseOnTestServer('postgres');
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  afterAll(async () => {
    const cleanup = new pg.Client({ connectionString: admin });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await cleanup.end();
  });
  return { DATABASE_URL: databaseOnTestServer(name) };
}
