// Proves that on a PostgreSQL server the service's repeated statements run as named prepared statements (parsed
// once per connection, their plans reusable), that a statement seen once stays unnamed, and that
// DATABASE_PREPARED_STATEMENTS=false turns naming off. Read from the server's own pg_prepared_statements of the
// one connection the client holds. The embedded database runs in this process through its own adapter: skipped.
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
});
