// Which workspaces hold most of a searched table (resolvers/shared/workspaceShares.ts), read from PostgreSQL's own
// statistics of the table: none before it is analyzed; after, the one holding at least half its rows, for that table
// alone; kept for a minute, then read again. A database of its own (on PostgreSQL a new one, on the embedded database
// one in memory), so that other test files' rows do not change the shares.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../infra/db/database.js';
import { migrate } from '../../infra/db/migrate.js';
import { searchedWorkspace } from '../../resolvers/shared/workspaceShares.js';
import { emptyDatabaseEnv } from '../support/freshDatabase.js';

const env = await emptyDatabaseEnv();
const db = await openDatabase({ url: env['DATABASE_URL'] });
afterAll(() => db.close());
await migrate(db.sql);

const large = randomUUID();
const small = randomUUID();
await db.sql.query(
  `INSERT INTO workspaces (id, name, public_id, updated_at) SELECT id, 'Shares', id::text, now() FROM unnest($1::uuid[]) AS given(id)`,
  [[large, small]],
);
const addContacts = (workspaceId: string, count: number) =>
  db.sql.query(
    `INSERT INTO customers (id, company_id, name, created_at, updated_at)
     SELECT gen_random_uuid(), $1::uuid, 'Contact ' || ordinal, now(), now() FROM generate_series(1, $2::int) AS ordinal`,
    [workspaceId, count],
  );
await addContacts(large, 300);
await addContacts(small, 100);

/** A connection of its own for each read, unless one is given: shares are kept per connection. */
const shares = async (workspaceId: string, connection = { ...db.searchSql }) => [
  ...(await searchedWorkspace(connection, workspaceId)).holdsMostOf,
];

afterEach(() => vi.useRealTimers());

describe('the workspaces holding most of a searched table', () => {
  it('are none while the table was never analyzed', async () => {
    expect(await shares(large)).toEqual([]);
  });

  it('are, once it is analyzed, the one holding at least half its contacts, and only for contacts', async () => {
    await db.sql.query('ANALYZE customers, messages');
    expect(await shares(large)).toEqual(['customers']);
    expect(await shares(small)).toEqual([]);
  });

  it('are kept for a minute, then read again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const connection = { ...db.searchSql };
    expect(await shares(large, connection)).toEqual(['customers']);
    await addContacts(small, 500);
    await db.sql.query('ANALYZE customers');
    expect(await shares(large, connection)).toEqual(['customers']);
    vi.setSystemTime(Date.now() + 61_000);
    expect(await shares(large, connection)).toEqual([]);
    expect(await shares(small, connection)).toEqual(['customers']);
  });
});
