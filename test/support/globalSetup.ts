import { execFileSync } from 'node:child_process';
import { openDatabase } from '../../infra/db/database.js';
import { migrate } from '../../infra/db/migrate.js';

/** Builds dist/ unless it is newer than its sources (two runs side by side, as in CI, then share npm install's build
 * rather than rewriting it under each other's running servers): dist/main.js and dist/worker.js (tests of real processes run what `npm start` and `npm run
 * worker` run) and the migrated embedded database that every test's embedded database starts from. With
 * TEST_DATABASE_URL, migrates the shared server database once (tests isolate by workspace). */
export default async function setup() {
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-outdated'], { stdio: 'inherit' });
  const url = process.env['TEST_DATABASE_URL'];
  if (!url) return;
  const db = await openDatabase({ url, poolSize: 2 });
  try {
    await migrate(db.sql);
  } finally {
    await db.close();
  }
}
