import { execFileSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { EMBEDDED_TEMPLATE, openDatabase } from '../../infra/db/database.js';
import { migrate } from '../../infra/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The build's migrated embedded database (EMBEDDED_TEMPLATE) that each test's embedded database starts from;
     * null with TEST_DATABASE_URL. */
    embeddedSnapshotPath: string | null;
  }
}

/** Builds dist/ once: dist/main.js and dist/worker.js (tests of real processes run what `npm start` and `npm run
 * worker` run) and the migrated embedded database that every test's embedded database starts from. With
 * TEST_DATABASE_URL, migrates the shared server database once (tests isolate by workspace). */
export default async function setup(project: TestProject) {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  const url = process.env['TEST_DATABASE_URL'];
  project.provide('embeddedSnapshotPath', url ? null : EMBEDDED_TEMPLATE);
  if (!url) return;
  const db = await openDatabase({ url, poolSize: 2 });
  try {
    await migrate(db.sql);
  } finally {
    await db.close();
  }
}
