// The service's own migrator: applies prisma/migrations/*/migration.sql in name order, each once, each in
// a transaction, under an advisory lock so that instances starting together do not race. It runs without the
// service's statement time-out: building an index over a large table takes minutes (docs/api-decisions.md), and an
// instance waiting for the lock waits for the migration.
// Prisma's schema engine is not used (it cannot be downloaded offline), so this is the only migrate path.
import { projectPath } from '../paths.js';
import { readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { ExecOptions, SqlConnection } from './sql.js';

const MIGRATIONS_DIR = projectPath('prisma/migrations');
const LOCK_ID = 7_340_112_901;
const UNBOUNDED: ExecOptions = { unbounded: true };

export type Migration = { name: string; sql: string; checksum: string };

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

/** Applies pending migrations; returns the names applied now. */
export async function migrate(connection: SqlConnection, migrations = readMigrations()): Promise<string[]> {
  return connection.session((sql) => applyPending(sql, migrations));
}

async function applyPending(sql: SqlConnection, migrations: Migration[]): Promise<string[]> {
  // The session's own limit is lifted for the migration and set back after it (RESET: the connection's setting).
  await sql.exec(`SET statement_timeout = 0; SELECT pg_advisory_lock(${LOCK_ID})`, UNBOUNDED);
  try {
    // Under the lock: two instances creating it at once on a new database would collide in the catalog.
    await sql.exec(`CREATE TABLE IF NOT EXISTS "_migrations" (
      "name" TEXT PRIMARY KEY,
      "checksum" TEXT NOT NULL,
      "applied_at" TIMESTAMPTZ NOT NULL DEFAULT now()
    )`);
    const applied = new Map(
      (await sql.query<{ name: string; checksum: string }>('SELECT name, checksum FROM "_migrations"')).map((row) => [
        row.name,
        row.checksum,
      ]),
    );
    const done: string[] = [];
    for (const migration of migrations) {
      const checksum = applied.get(migration.name);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) {
          throw new Error(`Migration ${migration.name} was changed after it was applied; add a new migration instead.`);
        }
        continue;
      }
      const name = migration.name.replace(/'/g, "''");
      await sql.exec(
        `BEGIN;\n${migration.sql}\n;INSERT INTO "_migrations" (name, checksum) VALUES ('${name}', '${migration.checksum}');\nCOMMIT;`,
        UNBOUNDED,
      );
      done.push(migration.name);
    }
    return done;
  } catch (error) {
    await sql.exec('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await sql.exec(`SELECT pg_advisory_unlock(${LOCK_ID}); RESET statement_timeout`);
  }
}
