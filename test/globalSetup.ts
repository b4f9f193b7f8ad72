import { openDatabase } from '../db/database.js';
import { migrate } from '../db/migrate.js';

/** With TEST_DATABASE_URL, migrate the shared server database once; tests isolate by workspace. */
export default async function setup() {
  const url = process.env['TEST_DATABASE_URL'];
  if (!url) return;
  const db = await openDatabase({ url, poolSize: 2 });
  try {
    await migrate(db.sql);
  } finally {
    await db.close();
  }
}
