// Proves that a migration outlasting the service's statement time-out still applies on PostgreSQL (building an
// index over a large table takes minutes, against a 30 s limit for requests), that an instance waiting for another's
// migration waits as long as it takes, and that the connection keeps its limit afterwards. The embedded database
// has no statement time-out: skipped there.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../infra/db/database.js';
import { migrate, type Migration } from '../../infra/db/migrate.js';
import { emptyDatabaseEnv } from '../support/freshDatabase.js';

const url = process.env['TEST_DATABASE_URL'];
const opened: Database[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.close()));
});

const migration = (name: string, sql: string): Migration => ({ name, sql, checksum: createHash('sha256').update(sql).digest('hex') });
/** Longer than the time-out below, as an index build over millions of rows is longer than REQUEST_TIMEOUT_MS. */
const SLOW = migration('0001_slow', 'SELECT pg_sleep(1.5); CREATE TABLE slow AS SELECT 1 AS done');

describe.skipIf(!url)('a migration longer than the statement time-out', async () => {
  // Made here, not in the test: the database is dropped by an afterAll hook, which a test cannot add (it was left behind).
  const { DATABASE_URL } = await emptyDatabaseEnv();

  it('applies, while a second instance waits for it, and leaves the connections their limit', async () => {
    const open = async () => {
      const db = await openDatabase({ url: DATABASE_URL!, poolSize: 2, statementTimeoutMs: 1_000 });
      opened.push(db);
      return db;
    };
    const [first, second] = [await open(), await open()];
    // Without the migrator lifting it, the limit holds: the same statement fails outside a migration.
    await expect(first.sql.exec('SELECT pg_sleep(1.5)')).rejects.toThrow(/statement timeout/);

    const applied = await Promise.all([migrate(first.sql, [SLOW]), migrate(second.sql, [SLOW])]);
    expect(applied.flat()).toEqual(['0001_slow']);
    expect(await first.sql.query('SELECT count(*)::int AS rows FROM slow')).toEqual([{ rows: 1 }]);
    for (const db of [first, second]) {
      const settings = await db.sql.session((sql) => sql.query<{ statement_timeout: string }>('SHOW statement_timeout'));
      expect(settings).toEqual([{ statement_timeout: '1s' }]);
    }
  });
});
