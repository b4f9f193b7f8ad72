// An empty database for a test that needs a service with no workspace at all (the first run): on PostgreSQL a
// new database beside TEST_DATABASE_URL's, dropped after the file; on the embedded database nothing is needed,
// since a new DATA_DIR starts empty.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll } from 'vitest';

/** The environment a spawned server needs to use an empty database. */
export async function emptyDatabaseEnv(): Promise<Record<string, string>> {
  const base = process.env['TEST_DATABASE_URL'];
  if (!base) return {};
  const name = `crm_fresh_${randomBytes(6).toString('hex')}`;
  const admin = new URL(base);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  afterAll(async () => {
    const cleanup = new pg.Client({ connectionString: admin.toString() });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await cleanup.end();
  });
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { DATABASE_URL: url.toString() };
}
