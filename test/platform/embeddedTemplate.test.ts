// A new DATA_DIR starts as a copy of the build's migrated embedded database (dist/embedded-database.tar, written by
// `npm run build`) rather than creating one: this proves the copy is what opens (its migrations were applied when the
// build ran, before the folder existed), that it is complete (migrating it applies nothing), and that a folder that
// already holds a database opens as it is, its rows kept, not as a new copy.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EMBEDDED_TEMPLATE, openDatabase } from '../../infra/db/database.js';
import { migrate } from '../../infra/db/migrate.js';
import { tempDir } from '../support/server.js';

describe('a new embedded database', () => {
  it('is a copy of the build’s migrated database; an existing one opens as it is', async () => {
    const builtAt = statSync(EMBEDDED_TEMPLATE).mtimeMs;
    const dataDir = join(tempDir('template'), 'data');
    const opening = Date.now();
    const db = await openDatabase({ dataDir });
    try {
      const applied = await db.sql.query<{ applied_at: Date }>('SELECT applied_at FROM "_migrations"');
      expect(applied.length).toBeGreaterThan(0);
      for (const { applied_at } of applied) {
        expect(applied_at.getTime()).toBeLessThanOrEqual(builtAt);
        expect(applied_at.getTime()).toBeLessThan(opening);
      }
      expect(await migrate(db.sql)).toEqual([]);
      await db.prisma.workspace.create({ data: { name: 'Kept' } });
    } finally {
      await db.close();
    }

    const reopened = await openDatabase({ dataDir });
    try {
      expect((await reopened.prisma.workspace.findMany({ select: { name: true } })).map((row) => row.name)).toEqual(['Kept']);
    } finally {
      await reopened.close();
    }
  });
});
