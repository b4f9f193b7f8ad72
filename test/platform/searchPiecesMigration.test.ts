// Migration 0043 rewrote short_grams, the one- and two-character pieces that contact search (the generated
// search_grams column) and message search (messages_company_id_body_grams_idx) look short terms up by, for speed. Proves that it
// answers the same pieces as the definition of migration 0017 for every kind of text (upper case, accents, emoji,
// spaces, one character, empty and missing parts), and that a contact written before the migration is still found by
// its pieces after it.
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../infra/db/migrate.js';
import { openDatabaseBefore } from '../support/databaseBefore.js';
import { openTestDatabase } from '../support/harness.js';

const REWRITE = '0043_plpgsql_functions';
/** short_grams as migration 0017 defined it. */
const FIRST_DEFINITION = `CREATE FUNCTION pg_temp.short_grams_0017(VARIADIC parts TEXT[]) RETURNS TEXT[] LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(array_agg(DISTINCT substr(lower(part), start, size)), '{}')
  FROM unnest(parts) AS part, generate_series(1, 2) AS size, generate_series(1, length(part) - size + 1) AS start
$$`;
const TEXTS: (string | null)[][] = [
  ['Nadia Rossi', '+15550001234', 'nadia.rossi@example.com'],
  ['ÉLODIE Ñandú', null, ''],
  ['a'],
  [''],
  [null],
  ['  double  spaces\tand\ttabs\n'],
  ['emoji 🎉🎉 and 漢字かな'],
  ['482913 is your verification code. This code expires in 10 minutes.'],
  ['ABab', 'abAB', 'BA'],
];

const sorted = (pieces: string[]) => [...pieces].sort();

describe(`migration ${REWRITE}`, () => {
  it('answers the same pieces as the first definition of short_grams', async () => {
    const db = await openTestDatabase();
    try {
      await db.sql.session(async (sql) => {
        await sql.exec(FIRST_DEFINITION);
        for (const parts of TEXTS) {
          const [row] = await sql.query<{ now: string[]; first: string[] }>(
            'SELECT short_grams(VARIADIC $1::text[]) AS now, pg_temp.short_grams_0017(VARIADIC $1::text[]) AS first',
            [parts],
          );
          expect(sorted(row!.now), JSON.stringify(parts)).toEqual(sorted(row!.first));
          expect(new Set(row!.now).size, 'no piece twice').toBe(row!.now.length);
        }
      });
    } finally {
      await db.close();
    }
  });

  describe('on a database written before it', async () => {
    const db = await openDatabaseBefore(REWRITE);
    afterAll(() => db.close());

    it('still finds a contact by the pieces stored before the migration, as it finds one written after', async () => {
      const workspace = '0190f3a0-0000-7000-8000-000000000101';
      await db.sql.query(`INSERT INTO workspaces (id, name, public_id, updated_at) VALUES ($1, 'Old', 'old-pieces-public-id', now())`, [
        workspace,
      ]);
      const insertContact = (id: string, name: string) =>
        db.sql.query(`INSERT INTO customers (id, company_id, name, wa_id, updated_at) VALUES ($1::uuid, $2, $3, $1::text, now())`, [
          id,
          workspace,
          name,
        ]);
      await insertContact('0190f3a0-0000-7000-8000-000000000102', 'Zoë Before');
      expect(await migrate(db.sql)).toContain(REWRITE);
      await insertContact('0190f3a0-0000-7000-8000-000000000103', 'Zoë After');

      for (const term of ['z', 'oë', 'ë', 'ë ', 'Z']) {
        const found = await db.sql.query<{ name: string }>(
          'SELECT name FROM customers WHERE company_id = $1 AND search_grams @> short_grams($2) ORDER BY name',
          [workspace, term],
        );
        expect(
          found.map((row) => row.name),
          term,
        ).toEqual(['Zoë After', 'Zoë Before']);
      }
    });
  });
});
