// Proves that the service's PostgreSQL connections, Prisma's and the written statements' alike, run without JIT
// compilation, which cost a search at a million contacts 100 ms for a statement that runs in 5 (docs/performance.md).
// The embedded database has no JIT: skipped there.
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../infra/db/database.js';

const url = process.env['TEST_DATABASE_URL'];
let db: Database | null = null;

afterEach(async () => {
  await db?.close();
  db = null;
});

describe.skipIf(!url)('the planner on PostgreSQL', () => {
  it('compiles no statement to machine code, whoever runs it', async () => {
    db = await openDatabase({ url: url!, poolSize: 2 });
    const [fromPrisma] = await db.prisma.$queryRaw<{ jit: string }[]>`SELECT current_setting('jit') AS jit`;
    const [written] = await db.sql.query<{ jit: string }>(`SELECT current_setting('jit') AS jit`);
    expect([fromPrisma?.jit, written?.jit]).toEqual(['off', 'off']);
  });
});
