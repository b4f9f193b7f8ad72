// A new database that stands before one migration: every migration up to it applied, not it. A test of what a
// migration does to data written before it writes that data here, then migrates. The caller closes the database.
import { openDatabase, type Database, type DatabaseOptions } from '../../infra/db/database.js';
import { migrate, readMigrations } from '../../infra/db/migrate.js';

/** `options`: where the database is (an empty PostgreSQL database); an embedded one in memory by default. */
export async function openDatabaseBefore(migration: string, options: DatabaseOptions = {}): Promise<Database> {
  const db = await openDatabase(options);
  await migrate(
    db.sql,
    readMigrations().filter((applied) => applied.name < migration),
  );
  return db;
}
