// Proves that on a PostgreSQL server the service's repeated statements run as named prepared statements (parsed
// once per connection, their plans reusable), that a statement seen once stays unnamed, and that
// DATABASE_PREPARED_STATEMENTS=false turns naming off; and that search statements run on sessions of their own whose
// named statements keep one plan for any values (a generic plan), the other statements' sessions choosing as
// PostgreSQL does. Read from the server's own pg_prepared_statements of the one connection the client holds. The
// embedded database runs in this process through its own adapter: skipped.
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../infra/db/database.js';
import { loadSettings } from '../../infra/config/settings.js';

const url = process.env['TEST_DATABASE_URL'];
let db: Database | null = null;

afterEach(async () => {
  await db?.close();
  db = null;
});

/** The statements prepared on the connection, among those this test ran (marked by their text). */
async function preparedHere(database: Database): Promise<string[]> {
  const rows = await database.prisma.$queryRaw<{ statement: string }[]>`
    SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%prepared_statements_probe%' AND statement NOT LIKE '%pg_prepared_statements%'`;
  return rows.map((row) => row.statement);
}

describe.skipIf(!url)('named prepared statements on PostgreSQL', () => {
  it('names a statement from its second run, and leaves one run once unnamed', async () => {
    db = await openDatabase({ url: url!, poolSize: 1 });
    await db.prisma.$queryRaw`SELECT ${1}::int AS prepared_statements_probe_once`;
    for (let run = 0; run < 3; run++) await db.prisma.$queryRaw`SELECT ${run}::int AS prepared_statements_probe_again`;
    expect(await preparedHere(db)).toEqual(['SELECT $1::int AS prepared_statements_probe_again']);
  });

  it('prepares nothing when DATABASE_PREPARED_STATEMENTS is false', async () => {
    const settings = loadSettings({ DATABASE_URL: url!, DATABASE_PREPARED_STATEMENTS: 'false' });
    db = await openDatabase({ url: url!, poolSize: 1, preparedStatements: settings.DATABASE_PREPARED_STATEMENTS });
    for (let run = 0; run < 3; run++) await db.prisma.$queryRaw`SELECT ${run}::int AS prepared_statements_probe_off`;
    expect(await preparedHere(db)).toEqual([]);
  });

  it('runs search statements on sessions that plan a named statement once for any values', async () => {
    db = await openDatabase({ url: url!, poolSize: 1 });
    const probe = 'SELECT count(*)::int AS prepared_statements_probe_search FROM customers WHERE name ILIKE $1';
    for (const term of ['%a%', '%b%', '%c%']) await db.searchSql.query(probe, [term]);
    const [named] = await db.searchSql.query<{ generic_plans: string; custom_plans: string }>(
      `SELECT generic_plans::text, custom_plans::text FROM pg_prepared_statements WHERE statement = $1`,
      [probe],
    );
    expect(named).toEqual({ generic_plans: '2', custom_plans: '0' });
    const [search] = await db.searchSql.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode');
    const [other] = await db.sql.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode');
    expect([search?.plan_cache_mode, other?.plan_cache_mode]).toEqual(['force_generic_plan', 'auto']);
  });

  it('runs search statements as the others when statements are not named', async () => {
    db = await openDatabase({ url: url!, poolSize: 1, preparedStatements: false });
    expect(db.searchSql).toBe(db.sql);
  });
});
