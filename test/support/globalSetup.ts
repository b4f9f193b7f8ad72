import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { embeddedSnapshot, openDatabase } from '../../infra/db/database.js';
import { migrate } from '../../infra/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding a migrated embedded database (embeddedSnapshot) that each test's database starts from; null
     * with TEST_DATABASE_URL. */
    embeddedSnapshotPath: string | null;
  }
}

/** Builds dist/main.js and dist/worker.js once (tests of real processes run what `npm start` and `npm run worker` run).
 * With TEST_DATABASE_URL, migrates the shared server database once (tests isolate by workspace); without it, migrates
 * one embedded database and keeps a copy that every test's embedded database starts from. */
export default async function setup(project: TestProject) {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  const url = process.env['TEST_DATABASE_URL'];
  if (!url) {
    const folder = mkdtempSync(join(tmpdir(), 'crm-test-snapshot-'));
    const path = join(folder, 'embedded.tar');
    writeFileSync(path, Buffer.from(await (await embeddedSnapshot()).arrayBuffer()));
    project.provide('embeddedSnapshotPath', path);
    return () => rmSync(folder, { recursive: true, force: true });
  }
  project.provide('embeddedSnapshotPath', null);
  const db = await openDatabase({ url, poolSize: 2 });
  try {
    await migrate(db.sql);
  } finally {
    await db.close();
  }
}
