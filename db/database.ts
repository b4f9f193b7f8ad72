// Opens the database: the PostgreSQL server named by DATABASE_URL, or else the embedded PGlite under
// DATA_DIR. Both speak the same SQL, run the same migrations and back the same Prisma client.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { fromPGlite, fromPgPool, type SqlConnection } from './sql.js';

export type Database = {
  prisma: PrismaClient;
  sql: SqlConnection;
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
};

export type DatabaseOptions = {
  /** A postgres:// URL; when absent the embedded database is used. */
  url?: string;
  /** Where the embedded database keeps its files; `memory://` keeps them in memory. */
  embeddedDir?: string;
  poolSize?: number;
};

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    return {
      prisma,
      sql: fromPgPool(pool),
      kind: 'postgres',
      async close() {
        await prisma.$disconnect();
        await pool.end();
      },
    };
  }
  const dir = options.embeddedDir ?? 'memory://';
  if (!dir.startsWith('memory://')) mkdirSync(dir, { recursive: true });
  const pglite = await PGlite.create(dir, { extensions: { pg_trgm, btree_gist } });
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  return {
    prisma,
    sql: fromPGlite(pglite),
    kind: 'pglite',
    async close() {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}

export function embeddedDatabaseDir(dataDir: string): string {
  return join(dataDir, 'pglite');
}
